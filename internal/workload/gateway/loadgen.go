package gateway

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
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
	ok       int64            // requests answered with a 2xx status, whole
	errs     [errKinds]int64  // failed requests by kind
	firstErr [errKinds]string // the first failure of each kind, for the notes
	latency  latencyHistogram // of the requests that succeeded
	wall     time.Duration    // from the start of the load to its end
	conns    int64            // TCP connections opened
	statuses map[int]int64    // the non-2xx statuses seen
	bodyLen  int64            // the body length of the last good response
}

// errors is the number of failed requests.
func (r *loadResult) errorCount() int64 {
	var n int64
	for _, c := range r.errs {
		n += c
	}
	return n
}

// connectBackoff is how long a connection waits after it failed to connect
// before it tries again, so a refusing server is not hammered in a busy loop.
const connectBackoff = 10 * time.Millisecond

// generator runs one load.
type generator struct {
	cfg     loadConfig
	request []byte // prebuilt
	stop    atomic.Bool
	issued  atomic.Int64
	start   time.Time
}

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

// runLoad loads the server at cfg.addr with cfg.clients connections, each a
// closed loop of requests, until the duration passed or the requests were
// made or ctx ended. Failures are counted, never fatal: it always returns
// within the duration plus the timeout.
func runLoad(ctx context.Context, cfg loadConfig) *loadResult {
	g := &generator{cfg: cfg, request: newRequest(cfg.addr, cfg.path, cfg.keepAlive)}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := make([]*worker, cfg.clients)
	for i := range workers {
		workers[i] = &worker{g: g, ctx: ctx, buf: make([]byte, 4096)}
	}
	var stopAt atomic.Int64 // ns since start when the load was stopped
	halt := func() {
		if g.stop.CompareAndSwap(false, true) {
			stopAt.Store(int64(time.Since(g.start)))
			cancel()
			for _, w := range workers {
				w.closeConn()
			}
		}
	}
	g.start = time.Now()
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.loop()
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	watch := time.NewTicker(watchdogPeriod(cfg.timeout))
	defer watch.Stop()
	deadline := time.NewTimer(cfg.duration)
	defer deadline.Stop()
	stopCtx := context.AfterFunc(ctx, halt)
	defer stopCtx()
loop:
	for {
		select {
		case <-done:
			break loop
		case <-deadline.C:
			halt()
		case <-watch.C:
			now := time.Since(g.start)
			for _, w := range workers {
				w.expire(now, cfg.timeout)
			}
		}
	}
	wall := time.Since(g.start)
	if g.stop.Load() {
		wall = time.Duration(stopAt.Load())
	}
	res := &loadResult{wall: wall, statuses: map[int]int64{}}
	for _, w := range workers {
		res.ok += w.ok
		res.conns += w.conns
		res.latency.merge(&w.latency)
		for k := range res.errs {
			res.errs[k] += w.errs[k]
			if res.firstErr[k] == "" {
				res.firstErr[k] = w.firstErr[k]
			}
		}
		for s, n := range w.statuses {
			res.statuses[s] += n
		}
		if w.bodyLen > 0 {
			res.bodyLen = w.bodyLen
		}
	}
	return res
}

// watchdogPeriod is how often requests are checked against the timeout.
func watchdogPeriod(timeout time.Duration) time.Duration {
	return min(max(timeout/20, time.Millisecond), 50*time.Millisecond)
}

// worker is one client connection's closed loop.
type worker struct {
	g    *generator
	ctx  context.Context
	conn atomic.Pointer[net.TCPConn]
	// inflight is when the current request started (ns since the load's
	// start, +1 so that 0 means none); the watchdog swaps it for -1 when
	// the request timed out and closes the connection.
	inflight atomic.Int64
	buf      []byte
	served   int // requests answered on the current connection

	ok       int64
	errs     [errKinds]int64
	firstErr [errKinds]string
	conns    int64
	latency  latencyHistogram
	statuses map[int]int64
	bodyLen  int64
}

func (w *worker) closeConn() {
	if c := w.conn.Load(); c != nil {
		c.Close()
	}
}

func (w *worker) dropConn() {
	if c := w.conn.Swap(nil); c != nil {
		c.Close()
	}
	w.served = 0
}

// expire times out the worker's request if it has run longer than timeout.
func (w *worker) expire(now, timeout time.Duration) {
	t := w.inflight.Load()
	if t > 0 && now-time.Duration(t-1) > timeout && w.inflight.CompareAndSwap(t, -1) {
		w.closeConn()
	}
}

func (w *worker) loop() {
	g := w.g
	defer w.dropConn()
	for !g.stop.Load() {
		if g.cfg.requests > 0 && g.issued.Add(1) > g.cfg.requests {
			return
		}
		t0 := time.Now()
		w.inflight.Store(int64(t0.Sub(g.start)) + 1)
		kind, err := w.do()
		timedOut := w.inflight.Swap(0) == -1
		if g.stop.Load() {
			return // it straddled the end: neither counted nor failed
		}
		if timedOut && kind >= 0 {
			kind, err = errTimeout, fmt.Errorf("no whole response within %v", g.cfg.timeout)
		}
		if kind < 0 {
			w.latency.add(time.Since(t0))
			w.ok++
			continue
		}
		w.errs[kind]++
		if w.firstErr[kind] == "" {
			w.firstErr[kind] = err.Error()
		}
		w.dropConn()
		if kind == errConnect {
			select {
			case <-time.After(connectBackoff):
			case <-w.ctx.Done():
			}
		}
	}
}

// do makes one request; kind is -1 on success. A keep-alive connection
// that the server closed before answering (as servers close idle
// connections) is replaced once, as browsers and Go's client do.
func (w *worker) do() (kind int, err error) {
	for try := 0; ; try++ {
		reused := w.conn.Load() != nil
		if !reused {
			if err := w.dial(); err != nil {
				return errConnect, err
			}
		}
		kind, got, err := w.exchange()
		if kind == errReset && reused && got == 0 && try == 0 && !w.g.stop.Load() {
			w.dropConn()
			continue
		}
		return kind, err
	}
}

func (w *worker) dial() error {
	d := net.Dialer{Timeout: w.g.cfg.timeout}
	c, err := d.DialContext(w.ctx, "tcp", w.g.cfg.addr)
	if err != nil {
		return err
	}
	w.conns++
	tc := c.(*net.TCPConn)
	w.conn.Store(tc)
	if w.g.stop.Load() {
		tc.Close() // halt may have closed the previous one only
	}
	return nil
}

// exchange sends the request on the current connection and reads the whole
// response; got is how many bytes of it came.
func (w *worker) exchange() (kind int, got int, err error) {
	c := w.conn.Load()
	if c == nil {
		return errReset, 0, errors.New("the connection was closed")
	}
	if _, err := c.Write(w.g.request); err != nil {
		return errReset, 0, fmt.Errorf("sending the request: %w", err)
	}
	var r response
	n := 0
	for r.headerLen == 0 {
		if n == len(w.buf) {
			if len(w.buf) >= 64<<10 {
				return errParse, got, errors.New("a response header of more than 64 KiB")
			}
			w.buf = append(w.buf, make([]byte, len(w.buf))...)
		}
		k, err := c.Read(w.buf[n:])
		n += k
		got += k
		if err != nil {
			if got == 0 && errors.Is(err, io.EOF) {
				return errReset, got, errors.New("the server closed the connection without answering")
			}
			return errReset, got, fmt.Errorf("reading the response: %w", err)
		}
		if err := r.parse(w.buf[:n]); err != nil {
			return errParse, got, err
		}
	}
	if r.untilClose { // the body ends with the connection
		for {
			k, err := c.Read(w.buf)
			got += k
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return errReset, got, fmt.Errorf("reading the response: %w", err)
			}
		}
		r.bodyLen = int64(got - r.headerLen)
	} else {
		for left := int64(r.headerLen) + r.bodyLen - int64(n); left > 0; {
			k, err := c.Read(w.buf)
			got += k
			left -= int64(k)
			if err != nil {
				return errReset, got, fmt.Errorf("reading the response body: %w", err)
			}
		}
	}
	w.served++
	if r.status < 200 || r.status > 299 {
		if w.statuses == nil {
			w.statuses = map[int]int64{}
		}
		w.statuses[r.status]++
		if r.close || !w.g.cfg.keepAlive {
			w.dropConn()
		}
		return errStatus, got, fmt.Errorf("status %d", r.status)
	}
	w.bodyLen = r.bodyLen
	if r.untilClose {
		w.dropConn()
	} else if r.close || !w.g.cfg.keepAlive {
		w.finish(c)
	}
	return -1, got, nil
}

// finish ends a connection the server closes after its response: it waits
// for the server's close (so the connection's TIME_WAIT stays with the
// server, as ab's does, and the client's ports are not used up), then closes.
func (w *worker) finish(c *net.TCPConn) {
	var b [64]byte
	for {
		if _, err := c.Read(b[:]); err != nil {
			break
		}
	}
	w.dropConn()
}
