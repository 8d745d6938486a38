package study

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/crash"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/hostprog"
	"github.com/boxtax/boxtax/internal/wire"
	"github.com/boxtax/boxtax/internal/workload"
)

// Time limits of a client-server pair.
const (
	serverListenTimeout = 60 * time.Second // a container's start included
	serverEndGrace      = 10 * time.Second // after its client ended
	serverStopTimeout   = 15 * time.Second
)

// clientServer is the procedure of a network workload. Each instance is a
// pair: its server in the environment under test (pinned as the placement
// says) and its client outside it, on the host or in the namespace of a
// wire, as the run's wire level says. The wire is made before the pairs
// start and removed after they end, also when ctx ends (Ctrl-C); all pairs
// of a run share it, as the flows of one device share its link.
func (r *Runner) clientServer(cs workload.ClientServer, run *executedRun, cpusets []string) procedure {
	return func(ctx context.Context, e env.Environment, spec env.Spec) (out workerOutput) {
		level, err := wireOf(run.Levels)
		if err != nil {
			return workerOutput{err: err}
		}
		if r.Host == nil {
			return workerOutput{err: errors.New("network workloads need the native environment for their client, and it is not prepared")}
		}
		sides, err := cs.ConfigureSides(run.Params)
		if err != nil {
			return workerOutput{err: fmt.Errorf("workload %s: %w", run.Workload, err)}
		}
		p := pairPlan{workload: cs, sides: sides, params: run.Params, client: r.Host}
		settings := env.Settings{"wire": level.String()}
		ownNet := false
		if n, ok := e.(env.Networked); ok && n.OwnNetwork() {
			ownNet = true
		}
		switch {
		case level.Netns:
			w, err := wire.Create(ctx, level.RateBitsPerS)
			if err != nil {
				return workerOutput{err: fmt.Errorf("making the wire: %w", err)}
			}
			defer func() {
				if err := w.Remove(context.WithoutCancel(ctx)); err != nil {
					out.err = errors.Join(out.err, err)
				}
			}()
			p.hostAddr, p.netns = w.HostAddr.String(), w.Namespace
			for k, v := range w.Settings() {
				settings[k] = v
			}
		case ownNet && !level.Proxy:
			// The bridge's gateway: through DNAT, not docker-proxy.
			n := e.(env.Networked)
			if p.hostAddr, err = n.NATAddress(ctx); err != nil {
				return workerOutput{err: err}
			}
		default:
			p.hostAddr = "127.0.0.1"
		}
		p.ownNet = ownNet
		cpusets, p.clientCPUs = clientPlacement(cpusets)
		if p.clientCPUs != "" {
			settings["client_cpus"] = p.clientCPUs
		}
		// Clients start together, once every server listens: instances
		// whose transfers only partly overlapped would each see the link
		// less shared than it was, and their sum would pass its rate.
		p.allListening = newBarrier(len(cpusets))
		pair := p.procedure()
		if len(cpusets) > 1 {
			out = concurrently(cpusets, pair)(ctx, e, spec)
		} else {
			spec.CPUSet = cpusets[0]
			out = pair(ctx, e, spec)
		}
		if out.settings == nil {
			out.settings = env.Settings{}
		}
		for k, v := range settings {
			out.settings[k] = v
		}
		return out
	}
}

// pairPlan says how to run a server and its client.
type pairPlan struct {
	workload workload.ClientServer
	sides    workload.Sides // the workload configured with params
	params   map[string]any
	client   env.Environment // native: the host
	netns    string          // the client's namespace, "" on the host
	hostAddr string          // where the client connects (and natively, where the server listens)
	ownNet   bool            // the server's environment has a network of its own: publish its port
	// clientCPUs pins every client, "" not at all (see clientPlacement).
	clientCPUs string
	// allListening is passed by every pair when its server listens (or
	// when the pair gave up); clients wait at it.
	allListening *barrier
}

// procedure runs one pair, retrying with another port when the one picked
// was taken meanwhile.
func (p pairPlan) procedure() procedure {
	return func(ctx context.Context, e env.Environment, spec env.Spec) workerOutput {
		var out workerOutput
		var once sync.Once
		arrive := func() { once.Do(p.allListening.arrive) }
		for try := 0; try < 3; try++ {
			port, release, err := takePort(p.hostAddr, p.sides.Protocols())
			if err != nil {
				out = workerOutput{err: err}
				break
			}
			var retry bool
			out, retry = p.run(ctx, e, spec, port, arrive)
			release()
			if !retry || ctx.Err() != nil {
				break
			}
		}
		arrive() // a pair that gave up must not hold the others
		return out
	}
}

// run runs the server, waits until it listens, runs the client to its end,
// then lets the server end (or stops it), and merges what both said. retry
// tells a server that could not have its port.
func (p pairPlan) run(ctx context.Context, e env.Environment, spec env.Spec, port int, arrive func()) (out workerOutput, retry bool) {
	target := net.JoinHostPort(p.hostAddr, strconv.Itoa(port))
	listen := target
	if p.ownNet {
		listen = net.JoinHostPort("0.0.0.0", strconv.Itoa(port))
		for _, proto := range p.sides.Protocols() {
			spec.Ports = append(spec.Ports, env.Port{Proto: proto, Port: port, HostIP: p.hostAddr})
		}
	}
	spec.Args = append(append([]string(nil), spec.Args...), "--serve", listen)
	srv, err := startServer(ctx, e, spec)
	if err != nil {
		return workerOutput{err: fmt.Errorf("starting the server: %w", err)}, portTaken(err.Error())
	}
	if err := srv.awaitListening(ctx, serverListenTimeout); err != nil {
		sout := srv.end(ctx, 0)
		return merged(workerOutput{err: err}, sout, target), portTaken(err.Error() + sout.stderr)
	}
	arrive()
	if err := p.allListening.wait(ctx); err != nil {
		return merged(workerOutput{err: err}, srv.end(ctx, 0), target), false
	}
	params, _ := json.Marshal(p.params)
	client := env.Spec{
		Args:   []string{"worker", "--workload", p.workload.Info().Name, "--params", string(params), "--client", target},
		Netns:  p.netns,
		CPUSet: p.clientCPUs,
	}
	cout := runWorker(ctx, p.client, client)
	grace := serverEndGrace
	if _, ok := p.sides.(workload.UntilStopped); ok {
		grace = 0 // stopped at once, as its workload expects
	}
	return merged(cout, srv.end(ctx, grace), target), false
}

// clientPlacement gives the clients a CPU of their own, as the seeds'
// client had a computer of its own: the last online CPU that no server is
// pinned to. When the run's placement pins no server, the servers get every
// other CPU. Without it, on a small machine, where the scheduler happened to
// put the two sides decided the round trip more than the path did: an idle
// CPU takes some 35 µs to wake here, so one run's UDP round trip was 20 µs
// (both on one CPU) and the next one's 55 (across two). On one CPU, or when
// the servers' placement takes every CPU, nothing is pinned for the client.
func clientPlacement(servers []string) (pinned []string, client string) {
	online, err := cpuset.Online()
	if err != nil || len(online) < 2 {
		return servers, ""
	}
	taken := map[int]bool{}
	unpinned := true
	for _, s := range servers {
		if s == "" {
			continue
		}
		unpinned = false
		set, err := cpuset.Parse(s)
		if err != nil {
			return servers, ""
		}
		for _, c := range set {
			taken[c] = true
		}
	}
	if unpinned {
		rest := online[:len(online)-1].String()
		pinned = make([]string, len(servers))
		for i := range pinned {
			pinned[i] = rest
		}
		return pinned, strconv.Itoa(online[len(online)-1])
	}
	for i := len(online) - 1; i >= 0; i-- {
		if !taken[online[i]] {
			return servers, strconv.Itoa(online[i])
		}
	}
	return servers, ""
}

// portTaken tells the messages of a port that was taken between picking it
// and the server binding it.
func portTaken(msg string) bool {
	return strings.Contains(msg, "port is already allocated") || strings.Contains(msg, "address already in use") ||
		strings.Contains(msg, "in use by another program")
}

// merged is one pair's output: the client's messages as they are (it
// measures), the server's notes as server.<key> and its errors as errors
// (they fail the run); the server's settings (its container...) as the
// run's, the client's as client.<key>.
func merged(client, server workerOutput, target string) workerOutput {
	out := client
	out.messages = append([]workload.Message(nil), client.messages...)
	for _, m := range server.messages {
		switch m.Kind {
		case workload.KindNote:
			m.Key = "server." + m.Key
		case workload.KindError:
			m.Text = "server: " + m.Text
		case workload.KindText:
			m = workload.Message{Kind: workload.KindNote, Key: "server.stdout", Text: m.Text}
		default:
			continue // hello, done; a server measures nothing
		}
		out.messages = append(out.messages, m)
	}
	out.settings = env.Settings{"server_address": target}
	for k, v := range server.settings {
		out.settings[k] = v
	}
	for k, v := range client.settings {
		out.settings["client."+k] = v
	}
	if out.err == nil && server.err != nil {
		out.err = fmt.Errorf("server: %w", server.err)
	}
	if out.decodeErr == nil {
		out.decodeErr = server.decodeErr
	}
	if server.stderr != "" {
		out.stderr += "; server" + server.stderr
	}
	return out
}

// server is a running server worker whose output is read as it comes.
type server struct {
	inst      env.Instance
	pw        *io.PipeWriter
	stderr    *hostprog.Tail
	listening chan struct{} // closed at the listening note
	exited    chan struct{} // closed when the worker exited
	decoded   chan struct{} // closed when its output is all read

	mu        sync.Mutex
	messages  []workload.Message
	waitErr   error
	decodeErr error
}

func startServer(ctx context.Context, e env.Environment, spec env.Spec) (*server, error) {
	pr, pw := io.Pipe()
	s := &server{pw: pw, stderr: newStderrTail(4096), listening: make(chan struct{}), exited: make(chan struct{}), decoded: make(chan struct{})}
	var once sync.Once
	crash.Go(func() {
		defer close(s.decoded)
		err := workload.Decode(pr, func(m workload.Message) {
			s.mu.Lock()
			s.messages = append(s.messages, m)
			s.mu.Unlock()
			if m.Kind == workload.KindNote && m.Key == workload.NoteListening {
				once.Do(func() { close(s.listening) })
			}
		})
		_, _ = io.Copy(io.Discard, pr) // never block the worker
		s.mu.Lock()
		s.decodeErr = err
		s.mu.Unlock()
	})
	inst, err := e.Start(ctx, spec, pw, s.stderr)
	if err != nil {
		pw.Close()
		<-s.decoded
		return nil, err
	}
	s.inst = inst
	crash.Go(func() {
		err := inst.Wait()
		s.mu.Lock()
		s.waitErr = err
		s.mu.Unlock()
		close(s.exited)
	})
	return s, nil
}

// awaitListening waits until the server can take its client.
func (s *server) awaitListening(ctx context.Context, timeout time.Duration) error {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-s.listening:
		return nil
	case <-s.exited:
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, m := range s.messages {
			if m.Kind == workload.KindError {
				return fmt.Errorf("the server ended before listening: %s", m.Text)
			}
		}
		return fmt.Errorf("the server ended before listening: %v", s.waitErr)
	case <-t.C:
		return fmt.Errorf("the server did not listen within %v", timeout)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// end gives the server grace to end by itself (it does once its client's
// session is over), then stops it, and returns what it said. A server that
// had to be stopped is noted, not failed: its client's figures stand.
func (s *server) end(ctx context.Context, grace time.Duration) workerOutput {
	stopped := false
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-s.exited:
	case <-t.C:
		stopped = true
	case <-ctx.Done():
		stopped = true
	}
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), serverStopTimeout)
	defer cancel()
	stopErr := s.inst.Stop(stopCtx)
	if stopped {
		<-s.exited
	}
	s.pw.Close()
	<-s.decoded
	s.mu.Lock()
	defer s.mu.Unlock()
	out := workerOutput{messages: s.messages, settings: s.inst.Settings(), decodeErr: s.decodeErr, stderr: stderrSuffix(s.stderr)}
	switch {
	case stopped && grace > 0 && ctx.Err() == nil:
		out.messages = append(out.messages, workload.Message{Kind: workload.KindNote, Key: "stopped",
			Text: fmt.Sprintf("did not end within %v of its client and was stopped", grace)})
	case !stopped && s.waitErr != nil:
		out.err = s.waitErr
	}
	if stopErr != nil {
		out.err = errors.Join(out.err, fmt.Errorf("cleaning up after the server: %w", stopErr))
	}
	return out
}

var (
	portsMu    sync.Mutex
	portsTaken = map[int]bool{}
)

// takePort picks a port free on the host at addr for every protocol, that
// no other pair of this process holds, and returns it with a function that
// gives it back.
func takePort(addr string, protos []string) (int, func(), error) {
	portsMu.Lock()
	defer portsMu.Unlock()
	var lastErr error
	for try := 0; try < 50; try++ {
		ln, err := net.Listen("tcp4", net.JoinHostPort(addr, "0"))
		if err != nil {
			return 0, nil, fmt.Errorf("finding a free port on %s: %w", addr, err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		free := !portsTaken[port]
		for _, proto := range protos {
			if proto == "udp" && free {
				pc, err := net.ListenPacket("udp4", net.JoinHostPort(addr, strconv.Itoa(port)))
				if err != nil {
					free, lastErr = false, err
					continue
				}
				pc.Close()
			}
		}
		ln.Close()
		if free {
			portsTaken[port] = true
			return port, func() {
				portsMu.Lock()
				delete(portsTaken, port)
				portsMu.Unlock()
			}, nil
		}
	}
	return 0, nil, fmt.Errorf("no port on %s is free for %s: %v", addr, strings.Join(protos, " and "), lastErr)
}

// barrier lets n pairs wait until every one has arrived.
type barrier struct {
	mu   sync.Mutex
	left int
	all  chan struct{}
}

func newBarrier(n int) *barrier { return &barrier{left: n, all: make(chan struct{})} }

// arrive counts one pair; each pair arrives once.
func (b *barrier) arrive() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.left--; b.left == 0 {
		close(b.all)
	}
}

// wait blocks until every pair has arrived.
func (b *barrier) wait(ctx context.Context) error {
	select {
	case <-b.all:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
