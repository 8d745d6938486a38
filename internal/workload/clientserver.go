package workload

import "context"

// ClientServer is implemented by workloads with two sides, as network
// benchmarks have: a server that runs in the environment under test and a
// client that stands outside it, where a real client would (on the host, or
// across an emulated wire), and measures. Their configs are Sides.
type ClientServer interface {
	Workload
	// ConfigureSides is Configure, typed for the study that runs the sides.
	ConfigureSides(p Params) (Sides, error)
}

// Sides is the config of a ClientServer workload. The worker runs one side
// (boxtax worker --serve or --client); Run runs both in one process over
// loopback.
type Sides interface {
	Config
	// Protocols lists the transport protocols ("tcp", "udp") the server
	// listens on at its one port, so that an environment with a network
	// of its own can publish exactly those.
	Protocols() []string
	// Serve listens at addr (host:port; port 0 picks a free one), sends the
	// note NoteListening with the address once a client can connect, serves
	// one client session and returns when it is over or ctx ends.
	Serve(ctx context.Context, addr string, e Emitter) error
	// Client does one session with the server at addr and reports every
	// metric the workload declares.
	Client(ctx context.Context, addr string, e Emitter) error
}

// WithSharedCPUs marks a client's context: other busy processes share its
// CPUs (the clients of a run's concurrent instances, pinned to one CPU
// together, or a server in the same process), so it must not take a CPU
// for itself, as a client that busy-polls does.
func WithSharedCPUs(ctx context.Context) context.Context {
	return context.WithValue(ctx, sharedCPUsKey{}, true)
}

// SharedCPUs says whether the context was marked by WithSharedCPUs.
func SharedCPUs(ctx context.Context) bool { return ctx.Value(sharedCPUsKey{}) != nil }

type sharedCPUsKey struct{}

// NoteListening is the note a server sends when clients can connect; its
// value is the address it listens at.
const NoteListening = "listening"

// UntilStopped is implemented by the Sides of client-server workloads whose server does
// not know when its client's session is over (the user's own server): the
// controller stops it as soon as the client ended, and that is no fault.
type UntilStopped interface {
	ServerRunsUntilStopped()
}

// FixedPorter is implemented by the Sides of client-server workloads whose
// server listens at a port of its own (an image's program, at the port it
// exposes), the same in every environment: FixedPort returns it, 0 to let
// the controller pick one.
type FixedPorter interface {
	FixedPort() int
}
