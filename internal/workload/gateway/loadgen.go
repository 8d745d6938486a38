package gateway

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boxtax/boxtax/internal/workload/latency"
	"golang.org/x/sys/unix"
)

// loadConfig says how to load an HTTP server.
type loadConfig struct {
	addr      string        // host:port
	path      string        // the request's target
	clients   int           // concurrent connections (ab -c, wrk -c)
	keepAlive bool          // reuse connections (ab -k); off: one connection per request
	duration  time.Duration // how long to load (ab -t, wrk -d); with requests, at most this
	requests  int64         // stop after this many requests (ab -n); 0: until the duration
	timeout   time.Duration // one request's (and one connection's) time limit
	threads   int           // event loops, each an OS thread (wrk -t); 0: one per CPU this process may use
	// quietWait lets event loops wait in epoll with their Ps held (see
	// eventLoop.wait): only where nothing else in the process needs a P
	// for long, not with the gateway in the same process.
	quietWait bool
	// poll is how long each event loop busy-polls its sockets before it
	// sleeps in epoll (see eventLoop.wait); 0: never.
	poll time.Duration
}

// Kinds of failed request.
const (
	errConnect = iota // the connection could not be made (refused, unreachable, timed out)
	errReset          // the connection broke before the whole response came (reset, closed)
	errTimeout        // no whole response within the timeout
	errStatus         // a response whose status is not 2xx
	errParse          // a response that is not HTTP/1.x
	errKinds
)

var errKindNames = [errKinds]string{"connect", "reset", "timeout", "status", "parse"}

// loadResult is what a load measured.
type loadResult struct {
	ok       int64             // requests answered with a 2xx status, whole
	errs     [errKinds]int64   // failed requests by kind
	firstErr [errKinds]string  // the first failure of each kind, for the notes
	latency  latency.Histogram // of the requests that succeeded
	wall     time.Duration     // from the start of the load to its end
	conns    int64             // TCP connections opened
	statuses map[int]int64     // the non-2xx statuses seen
	bodyLen  int64             // the body length of the last good response
	threads  int               // event loops used
	poll     time.Duration     // how long each busy-polled before sleeping
	waits    int64             // waits in epoll with a timeout (after polling): about how often a loop slept
	naps     int64             // naps before a wait in epoll (see eventLoop.nap)
	inFlight int64             // requests under way when the load stopped: neither counted nor failed
	// conntrackDrops are packets the host's connection tracking dropped
	// during the load (its table was full), when known.
	conntrackDrops int64
}

// errorCount is the number of failed requests.
func (r *loadResult) errorCount() int64 {
	var n int64
	for _, c := range r.errs {
		n += c
	}
	return n
}

// add merges what one event loop counted.
func (r *loadResult) add(o *loadResult) {
	r.ok += o.ok
	r.conns += o.conns
	r.inFlight += o.inFlight
	r.waits += o.waits
	r.naps += o.naps
	r.latency.Merge(&o.latency)
	for k := range r.errs {
		r.errs[k] += o.errs[k]
		if r.firstErr[k] == "" {
			r.firstErr[k] = o.firstErr[k]
		}
	}
	for s, n := range o.statuses {
		r.statuses[s] += n
	}
	if o.bodyLen > 0 {
		r.bodyLen = o.bodyLen
	}
}

// connectBackoff is how long a connection waits after it failed to connect
// before it tries again, so a refusing server is not hammered in a busy loop.
const connectBackoff = 10 * time.Millisecond

// newRequest builds the request bytes once.
func newRequest(addr, path string, keepAlive bool) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: boxtax\r\nAccept: */*\r\n", path, addr)
	if !keepAlive {
		b.WriteString("Connection: close\r\n")
	}
	b.WriteString("\r\n")
	return b.Bytes()
}

// generator is one load: what its event loops share.
type generator struct {
	cfg     loadConfig
	request []byte // prebuilt
	sa      sockaddr
	stop    atomic.Bool
	issued  atomic.Int64
}

// runLoad loads the server at cfg.addr with cfg.clients connections, each a
// closed loop of requests, until the duration passed, the requests were
// made or ctx ended. The connections are shared out among event loops, one
// OS thread each, as wrk's threads: each waits for all of its sockets at
// once in epoll and uses non-blocking system calls, with no goroutine
// switch per request. Failures are counted, never fatal: it returns within
// the duration and a few milliseconds, whatever the server does.
func runLoad(ctx context.Context, cfg loadConfig) (*loadResult, error) {
	sa, err := resolve(cfg.addr)
	if err != nil {
		return nil, err
	}
	g := &generator{cfg: cfg, request: newRequest(cfg.addr, cfg.path, cfg.keepAlive), sa: sa}
	threads := cfg.threads
	if threads <= 0 {
		threads = usableCPUs()
	}
	threads = max(1, min(threads, cfg.clients))
	quiet := cfg.quietWait || threads < runtime.GOMAXPROCS(0)
	loops := make([]*eventLoop, threads)
	for i := range loops {
		n := cfg.clients / threads
		if i < cfg.clients%threads {
			n++
		}
		// Every loop quiet, where allowed. Until poll, only a loop with
		// one connection was: with 50 connections on one pinned thread
		// the quiet loop did 25-29 k requests/s against 36-41 k through
		// syscall.EpollWait on a busy 2-vCPU VM, because the runtime's
		// extra threads, waking on every wait through the scheduler,
		// kept the client's vCPU from halting, and the server then need
		// not wake it. A pinned client now polls for that (see
		// eventLoop.wait), and with both sides on shared CPUs those
		// threads' wake-ups take CPU from the server: unpinned, the quiet
		// loop did 1.05x wrk's rate where the other did 0.98x, for 7.6
		// instead of 8.4 us of client CPU a request (docs/gateway.md).
		if loops[i], err = newEventLoop(g, n, quiet, cfg.poll); err != nil {
			for _, l := range loops[:i] {
				l.close()
			}
			return nil, err
		}
	}
	var stopAt time.Duration
	var once sync.Once
	start := time.Now()
	halt := func() { once.Do(func() { stopAt = time.Since(start); g.stop.Store(true) }) }
	var wg sync.WaitGroup
	for _, l := range loops {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.run(start)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	t := time.NewTimer(cfg.duration)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		halt()
	case <-ctx.Done():
		halt()
	}
	<-done
	wall := time.Since(start)
	if g.stop.Load() {
		wall = stopAt
	}
	res := &loadResult{wall: wall, statuses: map[int]int64{}, threads: threads, poll: cfg.poll}
	for _, l := range loops {
		res.add(&l.res)
	}
	return res, nil
}

// usableCPUs is how many CPUs this process may run on now: a worker pins
// itself after Go started, so GOMAXPROCS may count more.
func usableCPUs() int {
	if n := affinityCPUs(); n > 0 {
		return min(n, runtime.GOMAXPROCS(0))
	}
	return runtime.GOMAXPROCS(0)
}

// affinityCPUs is how many CPUs the calling thread may run on; 0 if unknown.
func affinityCPUs() int {
	var mask unix.CPUSet
	if err := unix.SchedGetaffinity(0, &mask); err != nil {
		return 0
	}
	return mask.Count()
}

// resolve makes addr a socket address once, so that no connection looks it up.
func resolve(addr string) (sockaddr, error) {
	ta, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return sockaddr{}, fmt.Errorf("the target %s: %w", addr, err)
	}
	return newSockaddr(ta), nil
}
