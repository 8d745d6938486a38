package launch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/wire"
	"github.com/boxtax/boxtax/internal/worker"
	"github.com/boxtax/boxtax/internal/workload"
)

// Time limits of a client-server pair.
const (
	serverListenTimeout = 60 * time.Second // a container's start included
	serverEndGrace      = 10 * time.Second // after its client ended
)

// clientServer is the procedure of a network workload. Each instance is a
// pair: its server in the environment under test (pinned as the placement
// says) and its client outside it, on the host or in the namespace of a
// wire, as the run's wire level says. The wire is made before the pairs
// start and removed after they end, also when ctx ends (Ctrl-C); all pairs
// of a run share it, as the flows of one device share its link.
func clientServer(cs workload.ClientServer, run Run, host env.Environment) Procedure {
	cpusets := run.CPUSets
	return func(ctx context.Context, e env.Environment, spec env.Spec) (out worker.Output) {
		level, err := WireOf(run.Levels)
		if err != nil {
			return worker.Output{Err: err}
		}
		if host == nil {
			return worker.Output{Err: errors.New("network workloads need the native environment for their client, and it is not prepared")}
		}
		inv, err := worker.New(run.Workload, run.Params)
		if err != nil {
			return worker.Output{Err: err}
		}
		sides, err := cs.ConfigureSides(run.Params)
		if err != nil {
			return worker.Output{Err: fmt.Errorf("workload %s: %w", run.Workload, err)}
		}
		p := pairPlan{sides: sides, inv: inv, client: host}
		settings := env.Settings{"wire": level.String()}
		ownNet := false
		if n, ok := e.(env.Networked); ok && n.OwnNetwork() {
			ownNet = true
		}
		switch {
		case level.Netns:
			w, err := wire.Create(ctx, level.RateBitsPerS)
			if err != nil {
				return worker.Output{Err: fmt.Errorf("making the wire: %w", err)}
			}
			defer func() {
				if err := w.Remove(context.WithoutCancel(ctx)); err != nil {
					out.Err = errors.Join(out.Err, err)
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
				return worker.Output{Err: err}
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
		p.sharedCPUs = len(cpusets) > 1
		pair := p.procedure()
		if len(cpusets) > 1 {
			out = Concurrently(cpusets, pair)(ctx, e, spec)
		} else {
			spec.CPUSet = cpusets[0]
			out = pair(ctx, e, spec)
		}
		if out.Settings == nil {
			out.Settings = env.Settings{}
		}
		for k, v := range settings {
			out.Settings[k] = v
		}
		return out
	}
}

// pairPlan says how to run a server and its client.
type pairPlan struct {
	sides    workload.Sides    // the workload configured with the run's parameters
	inv      worker.Invocation // the run's worker; each side adds --serve or --client
	client   env.Environment   // native: the host
	netns    string            // the client's namespace, "" on the host
	hostAddr string            // where the client connects (and natively, where the server listens)
	ownNet   bool              // the server's environment has a network of its own: publish its port
	// clientCPUs pins every client, "" not at all (see clientPlacement).
	clientCPUs string
	// sharedCPUs: the clients of concurrent instances share clientCPUs.
	sharedCPUs bool
	// allListening is passed by every pair when its server listens (or
	// when the pair gave up); clients wait at it.
	allListening *barrier
}

// procedure runs one pair, retrying with another port when the one picked
// was taken meanwhile.
func (p pairPlan) procedure() Procedure {
	return func(ctx context.Context, e env.Environment, spec env.Spec) worker.Output {
		var out worker.Output
		var once sync.Once
		arrive := func() { once.Do(p.allListening.arrive) }
		for try := 0; try < 3; try++ {
			port, release, err := p.serverPort()
			if err != nil {
				out = worker.Output{Err: err}
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
func (p pairPlan) run(ctx context.Context, e env.Environment, spec env.Spec, port int, arrive func()) (out worker.Output, retry bool) {
	target := net.JoinHostPort(p.hostAddr, strconv.Itoa(port))
	listen := target
	if p.ownNet {
		listen = net.JoinHostPort("0.0.0.0", strconv.Itoa(port))
		for _, proto := range p.sides.Protocols() {
			spec.Ports = append(spec.Ports, env.Port{Proto: proto, Port: port, HostIP: p.hostAddr})
		}
	}
	serve := p.inv
	serve.Serve = listen
	spec.Args = serve.Args()
	srv, err := worker.Start(ctx, e, spec)
	if err != nil {
		return worker.Output{Err: fmt.Errorf("starting the server: %w", err)}, portTaken(err.Error())
	}
	if err := srv.AwaitListening(ctx, serverListenTimeout); err != nil {
		sout := srv.EndServer(ctx, 0)
		return worker.Pair(worker.Output{Err: err}, sout, target), portTaken(err.Error() + sout.Stderr)
	}
	arrive()
	if err := p.allListening.wait(ctx); err != nil {
		return worker.Pair(worker.Output{Err: err}, srv.EndServer(ctx, 0), target), false
	}
	call := p.inv
	call.Client, call.SharedCPUs = target, p.sharedCPUs
	client := call.Spec()
	client.Netns, client.CPUSet = p.netns, p.clientCPUs
	cout := worker.Run(ctx, p.client, client)
	grace := serverEndGrace
	if _, ok := p.sides.(workload.UntilStopped); ok {
		grace = 0 // stopped at once, as its workload expects
	}
	return worker.Pair(cout, srv.EndServer(ctx, grace), target), false
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
