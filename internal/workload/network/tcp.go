package network

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/boxtax/boxtax/internal/sockfd"
	"github.com/boxtax/boxtax/internal/workload"
)

// Directions of a bulk transfer, seen from the environment under test.
const (
	dirIn  = "in"  // the client sends, the environment receives (iperf server in the environment)
	dirOut = "out" // the environment sends, the client receives (iperf client in the environment; iperf3 -R)
)

// TCP is the net.tcp workload: bulk TCP transfer over one or more parallel
// streams between the server in the environment and the client outside it,
// as iperf (TCP) does. The direction says which side sends.
var TCP = workload.DefineSides[tcpConfig](workload.Info{
	Name:     "net.tcp",
	Summary:  "bulk TCP bandwidth between a server in the environment and a client outside it, as iperf",
	SeedTool: "iperf / iperf3 (TCP)",
	Metrics: []workload.Metric{
		{Name: "mbit_per_s", Unit: "Mbit/s", Label: "TCP Mbit/s", HigherIsBetter: true,
			Description: "payload bits received by the receiving side divided by the time from its first byte to its last, over all streams (10^6 bits/s)"},
	},
})

// Protocols implements workload.Sides.
func (*tcpConfig) Protocols() []string { return []string{"tcp"} }

type tcpConfig struct {
	duration  time.Duration
	streams   int
	direction string
	buffer    int
	window    int

	bufferBytes, windowBytes int64
}

// Declare implements workload.Declarer.
func (c *tcpConfig) Declare(d *workload.Decl) {
	d.Duration(&c.duration, "duration", 5*time.Second, "how long the sender sends (iperf -t)")
	d.Positive()
	d.Int(&c.streams, "streams", 1, "parallel TCP connections (iperf -P)")
	d.Range(1, 128)
	d.String(&c.direction, "direction", dirIn, "in: the client sends and the environment receives (the seeds' iperf server in the container); out: the environment sends (iperf client in the container, iperf3 -R)")
	d.OneOf(dirIn, dirOut)
	d.Bytes(&c.bufferBytes, "buffer", 128<<10, "bytes per write and per read (iperf -l)")
	d.Bytes(&c.windowBytes, "window", 0, "socket send and receive buffer size (iperf -w); 0 leaves the kernel's autotuning")
	d.Min(0, "kernel default")
}

// Check implements workload.Checker.
func (c *tcpConfig) Check() error {
	c.buffer, c.window = int(c.bufferBytes), int(c.windowBytes)
	if c.buffer < 1 || c.buffer > 64<<20 {
		return fmt.Errorf("parameter buffer: %d bytes must be 1 B to 64 MiB", c.buffer)
	}
	return nil
}

// received is what a receiver counted: bytes, and the times of its first
// and last byte.
type received struct {
	Bytes     int64 `json:"bytes"`
	ElapsedNs int64 `json:"elapsed_ns"` // first byte to last byte
}

// Run implements workload.Config: server and client in this process over loopback.
func (c *tcpConfig) Run(ctx context.Context, _ workload.Env, e workload.Emitter) error {
	return workload.RunLoopback(context.WithValue(ctx, inProcessKey{}, true), c, e)
}

// Serve implements workload.Sides.
func (c *tcpConfig) Serve(ctx context.Context, addr string, e workload.Emitter) error {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procsFor(c.streams)))
	s, ctl, end, err := serveSession(ctx, addr, false, e)
	if err != nil {
		return err
	}
	defer end()
	conns, err := s.dataConns(ctx, c.streams, ctl)
	if err != nil {
		return err
	}
	defer closeAll(conns)
	stop := context.AfterFunc(ctx, func() { closeAll(conns) })
	defer stop()
	setWindow(conns, c.window)
	if c.direction == dirIn {
		got, err := receiveAll(ctx, conns, c.buffer)
		if err != nil {
			return err
		}
		if err := ctl.send(got); err != nil {
			return err
		}
	} else {
		sent, err := sendAll(ctx, conns, c.buffer, c.duration)
		if err != nil {
			return err
		}
		e.Note("sent_bytes", strconv.FormatInt(sent, 10))
	}
	e.Note("mss", strconv.Itoa(tcpMSS(conns[0])))
	ctl.waitClosed(30 * time.Second)
	return ctx.Err()
}

// Client implements workload.Sides.
func (c *tcpConfig) Client(ctx context.Context, addr string, e workload.Emitter) error {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procsFor(c.streams)))
	cs, err := connect(ctx, addr)
	if err != nil {
		return err
	}
	defer cs.ctl.end()
	conns := make([]*net.TCPConn, c.streams)
	defer closeAll(conns)
	for i := range conns {
		if conns[i], err = cs.data(ctx, i); err != nil {
			return err
		}
	}
	stop := context.AfterFunc(ctx, func() { closeAll(conns) })
	defer stop()
	setWindow(conns, c.window)
	var got received
	if c.direction == dirIn {
		if _, err := sendAll(ctx, conns, c.buffer, c.duration); err != nil {
			return err
		}
		if err := cs.ctl.recv(&got, 30*time.Second); err != nil {
			return fmt.Errorf("waiting for the server's count: %w", err)
		}
	} else {
		if got, err = receiveAll(ctx, conns, c.buffer); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if got.Bytes == 0 || got.ElapsedNs <= 0 {
		return fmt.Errorf("the receiver counted %d bytes in %d ns: nothing was transferred", got.Bytes, got.ElapsedNs)
	}
	seconds := float64(got.ElapsedNs) / 1e9
	e.Note("direction", c.direction)
	e.Note("streams", strconv.Itoa(c.streams))
	e.Note("bytes", strconv.FormatInt(got.Bytes, 10))
	e.Note("seconds", strconv.FormatFloat(seconds, 'f', 6, 64))
	e.Note("mss", strconv.Itoa(tcpMSS(conns[0])))
	e.Sample("mbit_per_s", float64(got.Bytes)*8/seconds/1e6)
	return nil
}

// procsFor is how many threads may run Go code while streams streams
// transfer: one per stream, at most one per CPU. Each stream's thread spends
// its time in blocking system calls; with an idle P to spare, the scheduler
// wakes other threads around every call, and on loopback one stream went
// from 24.8 to 20 Gbit/s with 4 times the context switches (2-CPU VM).
func procsFor(streams int) int { return max(1, min(streams, runtime.NumCPU())) }

// setWindow sets the socket buffers when asked (iperf -w).
//
// It also turns Nagle's algorithm back on, which Go turns off for every
// connection: iperf leaves it on for bulk transfers (its -N turns it off),
// and with it off every write's tail goes out as a small segment of its own.
func setWindow(conns []*net.TCPConn, window int) {
	for _, c := range conns {
		_ = c.SetNoDelay(false)
		if window > 0 {
			_ = c.SetReadBuffer(window)
			_ = c.SetWriteBuffer(window)
		}
	}
}

// streamSocket takes over c's socket for one of streams streams that
// transfer at once from threads of their own. It is quiet (see
// sockfd.Socket.Quiet) when every stream has a P of its own and the other
// side is in another process: a stream that waits for room in its socket, or
// for data, then sleeps in the kernel with its P as iperf's thread sleeps,
// where through the scheduler a process with one P (pinned to one CPU) had
// its P taken and a thread woken to look for work on every wait. With fewer
// Ps than streams, or both sides in this process (Run), a quiet stream
// waiting would hold a P another stream or the other side needs.
func streamSocket(ctx context.Context, c *net.TCPConn, streams int) (*sockfd.Socket, error) {
	return blockingSocket(c, ctx.Value(inProcessKey{}) == nil && streams <= runtime.GOMAXPROCS(0))
}

// sendAll writes on every connection at once for d, then closes their
// sending halves, and returns the bytes written. Each stream writes from a
// thread of its own with blocking calls, as iperf does: through Go's poller
// a stream that found its socket full would park and be woken again.
func sendAll(ctx context.Context, conns []*net.TCPConn, bufSize int, d time.Duration) (int64, error) {
	buf := make([]byte, bufSize)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	start := time.Now() // time.Since reads one clock, time.Now two
	var wg sync.WaitGroup
	sent := make([]int64, len(conns))
	errs := make([]error, len(conns))
	for i, c := range conns {
		sock, err := streamSocket(ctx, c, len(conns))
		if err != nil {
			return 0, err
		}
		defer sock.Close()
		defer context.AfterFunc(ctx, sock.Interrupt)()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Since(start) < d {
				if _, err := sock.Write(buf); err != nil {
					errs[i] = fmt.Errorf("stream %d: sending: %w", i, err)
					return
				}
				sent[i] += int64(len(buf))
			}
			errs[i] = c.CloseWrite()
		}()
	}
	wg.Wait()
	var total int64
	for _, n := range sent {
		total += n
	}
	return total, errors.Join(errs...)
}

// receiveAll reads every connection to its end, each from a thread of its
// own with blocking calls, and counts the bytes and the time from the first
// byte on any stream to the last on all.
func receiveAll(ctx context.Context, conns []*net.TCPConn, bufSize int) (received, error) {
	var mu sync.Mutex
	var first, last time.Time
	var total int64
	var wg sync.WaitGroup
	errs := make([]error, len(conns))
	for i, c := range conns {
		sock, err := streamSocket(ctx, c, len(conns))
		if err != nil {
			return received{}, err
		}
		defer sock.Close()
		defer context.AfterFunc(ctx, sock.Interrupt)()
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, bufSize)
			var n int64
			var t0 time.Time
			for {
				k, err := sock.Read(buf)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					errs[i] = fmt.Errorf("stream %d: receiving: %w", i, err)
					return
				}
				if n == 0 {
					t0 = time.Now()
				}
				n += int64(k)
			}
			t1 := time.Now()
			mu.Lock()
			defer mu.Unlock()
			total += n
			if n > 0 && (first.IsZero() || t0.Before(first)) {
				first = t0
			}
			if t1.After(last) {
				last = t1
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return received{}, err
	}
	return received{Bytes: total, ElapsedNs: last.Sub(first).Nanoseconds()}, nil
}
