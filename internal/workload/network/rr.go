package network

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/sockfd"
	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/latency"
)

// RR is the net.rr workload: request-response transactions, one at a time,
// over one TCP connection or UDP, as netperf's TCP_RR and UDP_RR: the client
// sends a request of `size` bytes, the server answers with as many, and the
// client times every round trip.
var RR = workload.DefineSides[rrConfig](workload.Info{
	Name:     "net.rr",
	Summary:  "request-response round trips over TCP or UDP, as netperf TCP_RR and UDP_RR",
	SeedTool: "netperf TCP_RR / UDP_RR",
	Metrics: []workload.Metric{
		{Name: "transactions_per_s", Unit: "transactions/s", Label: "trans/s", HigherIsBetter: true,
			Description: "completed request-response transactions divided by the client's wall time (netperf's transaction rate)"},
		roundTrip.Mean("mean round-trip time of a transaction, from sending the request to receiving the whole response, in microseconds"),
		roundTrip.Percentile(50),
		roundTrip.Percentile(99),
	},
})

// roundTrip is a transaction's round-trip time.
var roundTrip = workload.Distribution{Name: "rtt", Label: "RTT", Unit: "us", Of: "round-trip time in microseconds"}

// Protocols implements workload.Sides: the control connection is TCP.
func (c *rrConfig) Protocols() []string {
	if c.protocol == "udp" {
		return []string{"tcp", "udp"}
	}
	return []string{"tcp"}
}

type rrConfig struct {
	protocol string
	size     int
	duration time.Duration
}

// Declare implements workload.Declarer.
func (c *rrConfig) Declare(d *workload.Decl) {
	d.String(&c.protocol, "protocol", "tcp", "tcp (one connection, as TCP_RR) or udp (as UDP_RR)")
	d.OneOf("tcp", "udp")
	d.Int(&c.size, "size", 1, "bytes in each request and each response (netperf -r)")
	d.Range(1, 65507)
	d.Duration(&c.duration, "duration", 5*time.Second, "how long the client makes transactions (netperf -l)")
	d.Positive()
}

// Run implements workload.Config: server and client in this process over loopback.
func (c *rrConfig) Run(ctx context.Context, _ workload.Env, e workload.Emitter) error {
	return workload.RunLoopback(context.WithValue(ctx, inProcessKey{}, true), c, e)
}

// inProcessKey marks the context of a server and a client run in one
// process (Run).
type inProcessKey struct{}

// socketConn is a connection with a socket: *net.TCPConn, *net.UDPConn.
type socketConn interface {
	syscall.Conn
	Close() error
}

// roundTripSocket takes over conn's socket for one side's round trips and
// closes conn, which takes the socket out of Go's network poller (the
// duplicate keeps it open): a socket still in the poller's epoll set wakes
// the thread waiting in epoll on every packet, a second wake-up per round
// trip on an idle CPU that a C program does not have. The socket is quiet
// (see sockfd.Socket.Quiet) unless Run has both sides in a process with one
// P (GOMAXPROCS=1), where a quiet side waiting would hold the P the other
// side needs to answer.
func roundTripSocket(ctx context.Context, conn socketConn) (*sockfd.Socket, error) {
	sock, err := blockingSocket(conn, ctx.Value(inProcessKey{}) == nil || runtime.GOMAXPROCS(0) >= 2)
	if err != nil {
		return nil, err
	}
	conn.Close()
	return sock, nil
}

// blockingSocket takes over conn's socket for blocking calls (see
// sockfd.Blocking), quiet when asked.
func blockingSocket(conn syscall.Conn, quiet bool) (*sockfd.Socket, error) {
	sock, err := sockfd.Blocking(conn)
	if err != nil || !quiet {
		return sock, err
	}
	if err := sock.Quiet(); err != nil {
		sock.Close()
		return nil, err
	}
	return sock, nil
}

// Serve implements workload.Sides: it answers every request until
// the client ends the session.
func (c *rrConfig) Serve(ctx context.Context, addr string, e workload.Emitter) error {
	s, ctl, end, err := serveSession(ctx, addr, c.protocol == "udp", e)
	if err != nil {
		return err
	}
	defer end()
	stop := context.AfterFunc(ctx, s.close)
	defer stop()
	var answered int64
	if c.protocol == "tcp" {
		conns, err := s.dataConns(ctx, 1, ctl)
		if err != nil {
			return err
		}
		defer closeAll(conns)
		sock, err := roundTripSocket(ctx, conns[0])
		if err != nil {
			return err
		}
		defer sock.Close()
		stopEcho := context.AfterFunc(ctx, sock.Interrupt)
		defer stopEcho()
		answered, err = echoTCP(sock, c.size)
		if err != nil {
			return err
		}
	} else {
		sock, err := roundTripSocket(ctx, s.udp)
		if err != nil {
			return err
		}
		defer sock.Close()
		var stopping atomic.Bool
		done := make(chan int64, 1)
		go func() { done <- echoUDP(sock, c.size, &stopping) }()
		ctl.waitClosed(c.duration + 60*time.Second)
		stopping.Store(true)
		answered = <-done
	}
	e.Note("answered", strconv.FormatInt(answered, 10))
	ctl.waitClosed(30 * time.Second)
	return ctx.Err()
}

// echoTCP answers requests of size bytes until the client closes.
func echoTCP(sock *sockfd.Socket, size int) (int64, error) {
	buf := make([]byte, size)
	var n int64
	for {
		if err := sock.ReadFull(buf); err != nil {
			if errors.Is(err, io.EOF) {
				return n, nil
			}
			return n, fmt.Errorf("reading a request: %w", err)
		}
		if _, err := sock.Write(buf); err != nil {
			return n, fmt.Errorf("answering: %w", err)
		}
		n++
	}
}

// echoUDP answers every datagram of size bytes to where it came from, until
// told to stop.
func echoUDP(sock *sockfd.Socket, size int, stopping *atomic.Bool) int64 {
	_ = sock.SetReadTimeout(100 * time.Millisecond)
	buf := make([]byte, 65536)
	var n int64
	var from sockfd.Peer
	for !stopping.Load() {
		k, err := sock.RecvFrom(buf, &from)
		if err != nil || k != size || k == 0 {
			continue
		}
		if err := sock.SendTo(buf[:k], &from); err == nil {
			n++
		}
	}
	return n
}

// udpRRTimeout is how long the client waits for a UDP response before it
// counts the transaction as lost and sends the next request.
const udpRRTimeout = 200 * time.Millisecond

// Client implements workload.Sides.
func (c *rrConfig) Client(ctx context.Context, addr string, e workload.Emitter) error {
	cs, err := connect(ctx, addr)
	if err != nil {
		return err
	}
	defer cs.ctl.end()
	var conn net.Conn
	if c.protocol == "tcp" {
		tc, err := cs.data(ctx, 0)
		if err != nil {
			return err
		}
		if err := tc.SetNoDelay(true); err != nil {
			return err
		}
		conn = tc
	} else {
		raddr, err := net.ResolveUDPAddr("udp4", addr)
		if err != nil {
			return err
		}
		if conn, err = net.DialUDP("udp4", nil, raddr); err != nil {
			return fmt.Errorf("opening a UDP socket to %s: %w", addr, err)
		}
	}
	defer conn.Close()
	sock, err := roundTripSocket(ctx, conn.(socketConn))
	if err != nil {
		return err
	}
	defer sock.Close()
	stop := context.AfterFunc(ctx, sock.Interrupt)
	defer stop()

	rtts := new(latency.Histogram)
	elapsed, lost, err := transact(sock, *c, rtts)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return err
	}
	if rtts.Count() == 0 {
		return fmt.Errorf("no transaction completed in %v", c.duration)
	}
	us := func(d time.Duration) float64 { return float64(d) / 1e3 }
	e.Note("protocol", c.protocol)
	e.Note("size", strconv.Itoa(c.size))
	e.Note("transactions", strconv.FormatInt(rtts.Count(), 10))
	e.Note("lost", strconv.FormatInt(lost, 10))
	e.Note("rtt_min_us", strconv.FormatFloat(us(rtts.Min()), 'f', 3, 64))
	e.Note("rtt_max_us", strconv.FormatFloat(us(rtts.Max()), 'f', 3, 64))
	e.Sample("transactions_per_s", float64(rtts.Count())/elapsed.Seconds())
	e.Sample("rtt_mean_us", us(rtts.Mean()))
	e.Sample("rtt_p50_us", us(rtts.Quantile(0.50)))
	e.Sample("rtt_p99_us", us(rtts.Quantile(0.99)))
	return nil
}

// transact makes transactions back to back for the duration, counts each
// one's round-trip time into rtts, and returns the wall time and how many
// UDP requests got no answer in time.
func transact(sock *sockfd.Socket, c rrConfig, rtts *latency.Histogram) (elapsed time.Duration, lost int64, err error) {
	req := make([]byte, c.size)
	resp := make([]byte, 65536)
	udp := c.protocol == "udp"
	timeout := 10 * time.Second // a server that stopped answering
	if udp {
		timeout = udpRRTimeout
	}
	if err := sock.SetReadTimeout(timeout); err != nil {
		return 0, 0, err
	}
	// One clock read a transaction: the end of one is the start of the
	// next (the histogram's few ns go to the next round trip). time.Now
	// reads two clocks, wall and monotonic; time.Since reads one.
	start := time.Now()
	var t0 time.Duration
	for t0 < c.duration {
		if _, err := sock.Write(req); err != nil {
			return 0, lost, fmt.Errorf("sending a request: %w", err)
		}
		if udp {
			k, err := sock.Read(resp)
			if errors.Is(err, sockfd.ErrTimeout) {
				lost++
				if lost > 100 && rtts.Count() == 0 {
					return 0, lost, fmt.Errorf("no answer to %d UDP requests: is UDP forwarded to the server?", lost)
				}
				t0 = time.Since(start)
				continue
			}
			if err != nil {
				return 0, lost, fmt.Errorf("receiving a response: %w", err)
			}
			if k != c.size {
				t0 = time.Since(start)
				continue
			}
		} else if err := sock.ReadFull(resp[:c.size]); err != nil {
			return 0, lost, fmt.Errorf("receiving a response: %w", err)
		}
		t1 := time.Since(start)
		rtts.Record(t1 - t0)
		t0 = t1
	}
	return t0, lost, nil
}
