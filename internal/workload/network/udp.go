package network

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// UDP is the net.udp workload: datagrams of a fixed size sent for a
// duration at a target rate or flat out, as iperf -u; the receiver counts
// what arrived, how many were lost and the jitter of their transit times.
var UDP = workload.DefineSides[udpConfig](workload.Info{
	Name:     "net.udp",
	Summary:  "UDP datagrams at a target rate or flat out: achieved bandwidth, loss and jitter, as iperf -u",
	SeedTool: "iperf / iperf3 -u",
	Metrics: []workload.Metric{
		{Name: "mbit_per_s", Unit: "Mbit/s", Label: "UDP Mbit/s", HigherIsBetter: true,
			Description: "UDP payload bits that arrived divided by the sender's sending time (10^6 bits/s)"},
		{Name: "loss_pct", Unit: "%", Label: "UDP loss %",
			Description: "datagrams sent that never arrived, in percent of those sent"},
		{Name: "jitter_ms", Unit: "ms", Label: "UDP jitter ms",
			Description: "smoothed mean deviation of the transit time between consecutive datagrams, RFC 3550 as iperf computes it"},
	},
})

// Protocols implements workload.Sides: the control connection is TCP.
func (*udpConfig) Protocols() []string { return []string{"tcp", "udp"} }

type udpConfig struct {
	duration  time.Duration
	rateBits  float64 // 0: flat out
	size      int
	direction string
}

// Declare implements workload.Declarer.
func (c *udpConfig) Declare(d *workload.Decl) {
	d.Duration(&c.duration, "duration", 5*time.Second, "how long the sender sends (iperf -t)")
	d.Positive()
	d.BitRate(&c.rateBits, "rate", "0", "target sending rate of UDP payload, e.g. 90mbit (iperf -b); 0 sends flat out")
	d.Int(&c.size, "size", 1470, "UDP payload bytes per datagram (iperf -l), 28 to 65507")
	d.Range(datagramHeader, 65507)
	d.String(&c.direction, "direction", dirIn, "in: the client sends and the environment receives; out: the environment sends (iperf3 -R)")
	d.OneOf(dirIn, dirOut)
}

// udpSent is what the sender tells the receiver when it is done.
type udpSent struct {
	Datagrams int64 `json:"datagrams"`
	ElapsedNs int64 `json:"elapsed_ns"` // from the first send to the last
	Errors    int64 `json:"errors"`     // sends the kernel refused (ENOBUFS, ICMP unreachable)
}

// udpReady says the receiver is ready for datagrams.
type udpReady struct {
	Ready bool `json:"ready"`
}

// Run implements workload.Config: server and client in this process over loopback.
func (c *udpConfig) Run(ctx context.Context, _ workload.Env, e workload.Emitter) error {
	return workload.RunLoopback(ctx, c, e)
}

// Serve implements workload.Sides.
func (c *udpConfig) Serve(ctx context.Context, addr string, e workload.Emitter) error {
	s, ctl, end, err := serveSession(ctx, addr, true, e)
	if err != nil {
		return err
	}
	defer end()
	stop := context.AfterFunc(ctx, s.close)
	defer stop()
	sess := s.sessionID()
	if c.direction == dirIn {
		rx := startReceiver(s.udp, sess)
		if err := ctl.send(udpReady{Ready: true}); err != nil {
			return err
		}
		var sent udpSent
		if err := ctl.recv(&sent, c.duration+30*time.Second); err != nil {
			return fmt.Errorf("waiting for the client's count: %w", err)
		}
		if err := ctl.send(rx.finish(sent.Datagrams)); err != nil {
			return err
		}
	} else {
		// The client's probes tell where to send: its address as this side
		// sees it, after any NAT.
		peer, err := awaitProbe(ctx, s.udp, sess, 10*time.Second)
		if err != nil {
			return err
		}
		if err := ctl.send(udpReady{Ready: true}); err != nil {
			return err
		}
		sent := sendDatagrams(ctx, *c, sess, func(b []byte) error { _, err := s.udp.WriteToUDPAddrPort(b, peer); return err })
		e.Note("send_errors", strconv.FormatInt(sent.Errors, 10))
		if err := ctl.send(sent); err != nil {
			return err
		}
	}
	ctl.waitClosed(30 * time.Second)
	return ctx.Err()
}

// Client implements workload.Sides.
func (c *udpConfig) Client(ctx context.Context, addr string, e workload.Emitter) error {
	cs, err := connect(ctx, addr)
	if err != nil {
		return err
	}
	defer cs.ctl.end()
	raddr, err := net.ResolveUDPAddr("udp4", addr)
	if err != nil {
		return err
	}
	conn, err := net.DialUDP("udp4", nil, raddr)
	if err != nil {
		return fmt.Errorf("opening a UDP socket to %s: %w", addr, err)
	}
	defer conn.Close()
	_ = conn.SetReadBuffer(4 << 20)
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()

	var sent udpSent
	var got udpReceived
	var ready udpReady
	if c.direction == dirIn {
		if err := cs.ctl.recv(&ready, 30*time.Second); err != nil {
			return fmt.Errorf("waiting for the server to be ready: %w", err)
		}
		sent = sendDatagrams(ctx, *c, cs.id, func(b []byte) error { _, err := conn.Write(b); return err })
		if err := cs.ctl.send(sent); err != nil {
			return err
		}
		if err := cs.ctl.recv(&got, 30*time.Second); err != nil {
			return fmt.Errorf("waiting for the server's count: %w", err)
		}
	} else {
		rx := startReceiver(conn, cs.id)
		readyc := make(chan error, 1)
		go func() { readyc <- cs.ctl.recv(&ready, 15*time.Second) }()
		if err := probeUntilReady(conn, cs.id, readyc); err != nil {
			rx.finish(0)
			return fmt.Errorf("waiting for the server to be ready: %w", err)
		}
		if err := cs.ctl.recv(&sent, c.duration+30*time.Second); err != nil {
			rx.finish(0)
			return fmt.Errorf("waiting for the server's count: %w", err)
		}
		got = rx.finish(sent.Datagrams)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if sent.Datagrams == 0 || sent.ElapsedNs <= 0 {
		return errors.New("no datagram was sent")
	}
	if got.Datagrams == 0 {
		return fmt.Errorf("none of the %d datagrams sent arrived", sent.Datagrams)
	}
	lost := sent.Datagrams - got.Datagrams
	if lost < 0 {
		lost = 0
	}
	e.Note("direction", c.direction)
	e.Note("size", strconv.Itoa(c.size))
	e.Note("target_rate", rateNote(c.rateBits))
	e.Note("datagrams_sent", strconv.FormatInt(sent.Datagrams, 10))
	e.Note("datagrams_received", strconv.FormatInt(got.Datagrams, 10))
	e.Note("out_of_order", strconv.FormatInt(got.OutOfOrder, 10))
	e.Note("send_errors", strconv.FormatInt(sent.Errors, 10))
	e.Note("sent_mbit_per_s", strconv.FormatFloat(float64(sent.Datagrams)*float64(c.size)*8/(float64(sent.ElapsedNs)/1e9)/1e6, 'f', 3, 64))
	e.Sample("mbit_per_s", float64(got.Bytes)*8/(float64(sent.ElapsedNs)/1e9)/1e6)
	e.Sample("loss_pct", 100*float64(lost)/float64(sent.Datagrams))
	e.Sample("jitter_ms", got.JitterMs)
	return nil
}

func rateNote(bits float64) string {
	if bits == 0 {
		return "flat out"
	}
	return strconv.FormatFloat(bits/1e6, 'f', -1, 64) + "mbit"
}

// sendDatagrams sends numbered, time-stamped datagrams for the duration,
// paced to the target rate (catching up after oversleeping, so the mean
// rate holds) or flat out. The socket keeps the kernel's send buffer, as
// iperf's does: datagrams waiting in the host's own queue (a shaped wire's,
// a NIC's) count against it, so a sender faster than its link is held back
// instead of overfilling the queue; drops happen only beyond the sender's
// host, as on a real network.
func sendDatagrams(ctx context.Context, c udpConfig, session uint64, send func([]byte) error) udpSent {
	buf := make([]byte, c.size)
	var interval time.Duration
	if c.rateBits > 0 {
		interval = time.Duration(float64(c.size*8) / c.rateBits * 1e9)
	}
	start := time.Now()
	end := start.Add(c.duration)
	next := start
	var out udpSent
	var last time.Time
	for seq := uint64(0); ctx.Err() == nil; seq++ {
		now := time.Now()
		if !now.Before(end) {
			break
		}
		if interval > 0 && now.Before(next) {
			time.Sleep(next.Sub(now))
			now = time.Now()
		}
		putDatagram(buf, session, seq, now)
		if err := send(buf); err != nil {
			out.Errors++
			if errors.Is(err, net.ErrClosed) {
				break
			}
		}
		last = now
		out.Datagrams++
		next = next.Add(interval)
	}
	out.ElapsedNs = last.Sub(start).Nanoseconds()
	if out.ElapsedNs <= 0 {
		out.ElapsedNs = 1
	}
	return out
}

// awaitProbe waits for a probe of the session and returns where it came from.
func awaitProbe(ctx context.Context, conn *net.UDPConn, session uint64, timeout time.Duration) (netip.AddrPort, error) {
	buf := make([]byte, 65536)
	deadline := time.Now().Add(timeout)
	_ = conn.SetReadDeadline(deadline)
	defer conn.SetReadDeadline(time.Time{})
	for {
		n, from, err := conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			if ctx.Err() != nil {
				return netip.AddrPort{}, ctx.Err()
			}
			return netip.AddrPort{}, fmt.Errorf("no UDP probe from the client within %v: is UDP forwarded to this port?", timeout)
		}
		if d, ok := parseDatagram(buf[:n]); ok && d.session == session && d.seq == probeSeq {
			return from, nil
		}
	}
}

// probeUntilReady sends probes every 20 ms until the server says it is ready.
func probeUntilReady(conn *net.UDPConn, session uint64, ready <-chan error) error {
	probe := make([]byte, datagramHeader)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		putDatagram(probe, session, probeSeq, time.Now())
		_, _ = conn.Write(probe)
		select {
		case err := <-ready:
			return err
		case <-tick.C:
		}
	}
}
