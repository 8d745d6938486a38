package mqtt

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/sockfd"
)

// ackTimeout is how long a publish may wait for its acknowledgement before
// the connection counts as failed.
const ackTimeout = 5 * time.Second

// errAckTimeout is what a blocking read returns when SO_RCVTIMEO passed.
var errAckTimeout = fmt.Errorf("no acknowledgement within %v", ackTimeout)

// reconnectDelay is the pause between connection attempts of a client
// whose broker refused it or went away.
const reconnectDelay = 100 * time.Millisecond

// publisher is one publishing client: its connection, its message and what
// it measured.
type publisher struct {
	index int
	cfg   *config
	addr  string
	base  time.Time // the time stamps in payloads are nanoseconds since base

	pkt   []byte // the PUBLISH packet, its id and time stamp rewritten in place
	idOff int    // offset of the packet id in pkt (QoS 1 and 2)
	tsOff int    // offset of the time stamp in pkt, -1 without one
	conn  *clientConn
	sent  int // message attempts so far

	// What it measured.
	acked    int64
	failed   int64
	first    time.Time // first publish
	last     time.Time // last acknowledgement
	lat      histogram
	firstErr error
	// downSince is when the client lost (or failed to make) its
	// connection, zero while connected; down sums those periods.
	downSince time.Time
	down      time.Duration
}

func newPublisher(index int, cfg *config, addr string, base time.Time) *publisher {
	p := &publisher{index: index, cfg: cfg, addr: addr, base: base, tsOff: -1}
	payload := make([]byte, cfg.payload)
	for i := range payload {
		payload[i] = byte('a' + i%26)
	}
	p.pkt = appendPublish(nil, cfg.topic, cfg.qos, false, 1, payload)
	hdr := len(p.pkt) - cfg.payload
	p.idOff = hdr - 2
	if cfg.subscribers > 0 && cfg.payload >= 8 {
		p.tsOff = hdr // only subscribers read it; otherwise the payload stays as built
	}
	return p
}

func (p *publisher) clientID() string {
	return "boxtax-pub-" + strconv.Itoa(p.index) + "-" + strconv.FormatInt(p.base.UnixNano()%1e9, 36)
}

// fail counts n messages that were not acknowledged and keeps the first error.
func (p *publisher) fail(n int, err error) {
	p.failed += int64(n)
	if p.firstErr == nil && err != nil {
		p.firstErr = err
	}
}

// stamp writes the packet id and the time stamp of a publish written at t.
func (p *publisher) stamp(id uint16, t time.Time) {
	if p.cfg.qos > 0 {
		binary.BigEndian.PutUint16(p.pkt[p.idOff:], id)
	}
	if p.tsOff >= 0 {
		binary.LittleEndian.PutUint64(p.pkt[p.tsOff:], uint64(t.Sub(p.base).Nanoseconds()))
	}
}

// connect makes the client's connection; a failure counts as one failed
// message attempt. Before the start (patient), a refused or timed-out
// connection is tried again for up to 15 s, as the control connection is:
// nothing is measured yet.
func (p *publisher) connect(ctx context.Context, patient bool) bool {
	dial := dialMQTT
	if patient {
		dial = dialRetry
	}
	c, err := dial(ctx, p.addr, p.clientID())
	if err != nil {
		p.sent++
		p.fail(1, err)
		return false
	}
	p.conn = c
	if !p.downSince.IsZero() {
		p.down += time.Since(p.downSince)
		p.downSince = time.Time{}
	}
	return true
}

// run publishes from start until the deadline or the message count,
// reconnecting after failures, and then closes the connection.
func (p *publisher) run(ctx context.Context, start, deadline time.Time) {
	defer func() {
		if p.conn != nil {
			p.conn.disconnect()
			p.conn = nil
		}
	}()
	if p.conn == nil {
		p.downSince = start // its first connection failed
	}
	defer func() {
		if !p.downSince.IsZero() {
			p.down += time.Since(p.downSince)
		}
	}()
	for p.more(ctx, deadline) {
		if p.conn == nil && !p.connect(ctx, false) {
			pause(ctx, deadline, reconnectDelay)
			continue
		}
		var err error
		switch {
		case p.cfg.qos == 0:
			err = p.runQoS0(ctx, start, deadline)
		case p.cfg.inflight == 1:
			err = p.runOneAtATime(ctx, start, deadline)
		default:
			err = p.runWindow(ctx, start, deadline)
		}
		if err == nil {
			return
		}
		p.conn.Close()
		p.conn = nil
		p.downSince = time.Now()
		p.fail(0, err)
		pause(ctx, deadline, reconnectDelay)
	}
}

// more says whether another message is due.
func (p *publisher) more(ctx context.Context, deadline time.Time) bool {
	return ctx.Err() == nil && (p.cfg.messages == 0 || p.sent < p.cfg.messages) && time.Now().Before(deadline)
}

// pace waits until message p.sent is due at the client's rate; it reports
// false when that is past the deadline.
func (p *publisher) pace(ctx context.Context, start, deadline time.Time) bool {
	if p.cfg.rate <= 0 {
		return true
	}
	due := start.Add(time.Duration(float64(p.sent) / p.cfg.rate * float64(time.Second)))
	if !due.Before(deadline) {
		return false
	}
	if d := time.Until(due); d > 0 {
		return pause(ctx, deadline, d)
	}
	return true
}

// pause sleeps d, less when the deadline or ctx comes first; it reports
// whether it slept the whole time.
func pause(ctx context.Context, deadline time.Time, d time.Duration) bool {
	if until := time.Until(deadline); until < d {
		d = max(until, 0)
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// acknowledged records an acknowledgement at now of a publish written at t0.
func (p *publisher) acknowledged(t0, now time.Time) {
	p.acked++
	p.last = now
	p.lat.record(now.Sub(t0).Nanoseconds())
}

// runOneAtATime publishes and waits for each acknowledgement before the
// next publish, as mqtt-benchmark does (paho's token.Wait after each
// Publish). It returns nil when the client is done, or the connection's
// error (the message in flight counted as failed).
func (p *publisher) runOneAtATime(ctx context.Context, start, deadline time.Time) error {
	c := p.conn
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	var w io.Writer = c
	rd := c.rd
	blocking := false
	if blockingFor(p.cfg.clients) {
		if sc, ok := c.Conn.(syscall.Conn); !ok {
		} else if b, err := sockfd.Blocking(sc); err == nil {
			defer b.Restore()
			defer context.AfterFunc(ctx, b.Interrupt)()
			b.TimeoutErr = errAckTimeout
			err := b.SetReadTimeout(ackTimeout)
			if err == nil && quietFor(ctx, p.cfg) {
				err = b.Quiet()
			}
			if err == nil {
				w, rd, blocking = b, newReader(b, readBufSize, maxBody), true
			}
		}
	}
	var id uint16
	rel := appendAck(nil, typePubrel, 0)
	for p.more(ctx, deadline) {
		if !p.pace(ctx, start, deadline) {
			return nil
		}
		if id++; id == 0 {
			id = 1
		}
		t0 := time.Now()
		if p.first.IsZero() {
			p.first = t0
		}
		p.stamp(id, t0)
		p.sent++
		if !blocking {
			_ = c.SetReadDeadline(t0.Add(ackTimeout))
		}
		if _, err := w.Write(p.pkt); err != nil {
			p.fail(1, fmt.Errorf("publishing: %w", err))
			return err
		}
		for done := false; !done; {
			pk, err := rd.read()
			if err != nil {
				p.fail(1, fmt.Errorf("waiting for the acknowledgement: %w", err))
				return err
			}
			got, err := ackID(pk)
			if err != nil || got != id {
				continue // not this message's (or not an acknowledgement)
			}
			switch pk.kind() {
			case typePuback, typePubcomp:
				p.acknowledged(t0, time.Now())
				done = true
			case typePubrec:
				rel[2], rel[3] = byte(id>>8), byte(id)
				if _, err := w.Write(rel); err != nil {
					p.fail(1, fmt.Errorf("sending PUBREL: %w", err))
					return err
				}
			}
		}
	}
	return nil
}

// blockingFor says whether clients one-at-a-time publishers wait in
// blocking system calls on threads of their own (see sockfd.Socket)
// rather than through Go's poller: only while each can have a P of its
// own. Against mosquitto on loopback, the client on one CPU of a 2-CPU VM
// (GOMAXPROCS 1): 1 client did 39-45 k messages/s blocking against 16-40 k
// through the poller, 4 clients 50-58 k against 80-103 k, and 150 clients
// 56-66 k against 103-156 k with a median acknowledgement of 17 us but a
// mean of 2 ms: the threads queued for the one P.
func blockingFor(clients int) bool { return clients <= runtime.GOMAXPROCS(0) }

// quietFor says whether blocking publishers may also be quiet (see
// sockfd.Socket): hold their Ps while they wait. Only when no goroutine of
// the process needs a P at the same time: a P is left over, or the process
// has no subscribers and its broker runs elsewhere (not Run's loopback).
func quietFor(ctx context.Context, cfg *config) bool {
	busy := cfg.clients
	if cfg.subscribers > 0 || ctx.Value(inProcessKey{}) != nil {
		busy++
	}
	return busy <= runtime.GOMAXPROCS(0)
}

// inProcessKey marks the context of a Run, which has the broker in the
// same process as the publishers.
type inProcessKey struct{}

// runQoS0 publishes without acknowledgements, then sends PINGREQ and waits
// for the PINGRESP: the broker answers it after every publish before it, so
// the messages count as acknowledged at its arrival. When the connection
// fails first, the messages written on it count as failed.
func (p *publisher) runQoS0(ctx context.Context, start, deadline time.Time) error {
	c := p.conn
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	w := bufio.NewWriterSize(c, writeBufSize)
	written := 0
	for p.more(ctx, deadline) {
		if !p.pace(ctx, start, deadline) {
			break
		}
		t := time.Now()
		if p.first.IsZero() {
			p.first = t
		}
		p.stamp(0, t)
		p.sent++
		written++
		_, _ = w.Write(p.pkt)
		// One write per message, as a client library does; a buffer
		// only in case a write returns short.
		if err := w.Flush(); err != nil {
			p.fail(written, fmt.Errorf("publishing: %w", err))
			return err
		}
	}
	if written == 0 {
		return nil
	}
	_ = c.SetReadDeadline(time.Now().Add(ackTimeout))
	if _, err := c.Write([]byte{typePingreq << 4, 0}); err != nil {
		p.fail(written, fmt.Errorf("sending PINGREQ: %w", err))
		return err
	}
	for {
		pk, err := c.rd.read()
		if err != nil {
			p.fail(written, fmt.Errorf("waiting for PINGRESP after the publishes: %w", err))
			return err
		}
		if pk.kind() == typePingresp {
			p.acked += int64(written)
			p.last = time.Now()
			return nil
		}
	}
}

// runWindow keeps up to cfg.inflight publishes unacknowledged: a writer
// (this goroutine) takes a free packet id and writes, and a reader returns
// ids as their acknowledgements arrive. Publishes written while ids are
// free are buffered and go out together (at most 4 KiB, or when the window
// is full).
func (p *publisher) runWindow(ctx context.Context, start, deadline time.Time) error {
	c := p.conn
	n := p.cfg.inflight
	free := make(chan uint16, n)
	sentNs := make([]atomic.Int64, n+1) // by packet id: when it was written (ns since base), -1 when not in flight
	for i := 1; i <= n; i++ {
		free <- uint16(i)
		sentNs[i].Store(-1)
	}
	sentNs[0].Store(-1)
	w := &lockedWriter{w: bufio.NewWriterSize(c, writeBufSize)}
	ackedBefore := p.acked
	readErr := make(chan error, 1)
	go func() { readErr <- p.readAcks(c, free, sentNs, w) }()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()

	written := 0
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var err error
	readerEnded := false
send:
	for p.more(ctx, deadline) {
		if !p.pace(ctx, start, deadline) {
			break
		}
		var id uint16
		select {
		case id = <-free:
		default:
			// The window is full: send what is buffered, then wait.
			if err = w.flush(); err != nil {
				break send
			}
			timer.Reset(min(time.Until(deadline), ackTimeout))
			select {
			case id = <-free:
			case err = <-readErr:
				readerEnded = true
				break send
			case <-timer.C:
				if time.Now().Before(deadline) {
					err = fmt.Errorf("no acknowledgement within %v", ackTimeout)
				}
				break send
			case <-ctx.Done():
				break send
			}
		}
		t0 := time.Now()
		if p.first.IsZero() {
			p.first = t0
		}
		p.stamp(id, t0)
		sentNs[id].Store(t0.Sub(p.base).Nanoseconds())
		p.sent++
		written++
		if err = w.write(p.pkt, len(free) == 0 || p.cfg.rate > 0 || w.buffered() >= 4096); err != nil {
			break send
		}
	}
	if err == nil && !readerEnded {
		err = w.flush()
	}
	// Wait for the acknowledgements of what is in flight.
	if err == nil && !readerEnded {
		timer.Reset(ackTimeout)
	wait:
		for got := 0; got < n; { // every id back in free: nothing in flight
			select {
			case <-free:
				got++
			case err = <-readErr:
				readerEnded = true
				break wait
			case <-timer.C:
				err = fmt.Errorf("%d publishes unacknowledged %v after the last", n-got, ackTimeout)
				break wait
			case <-ctx.Done():
				err = ctx.Err()
				break wait
			}
		}
	}
	if !readerEnded {
		if err == nil {
			_ = c.SetReadDeadline(time.Now()) // ends the reader; the connection stays for DISCONNECT
		} else {
			c.Close()
		}
		<-readErr
	}
	// The reader has ended: its counts are final.
	if unacked := written - int(p.acked-ackedBefore); unacked > 0 {
		if err == nil {
			err = errors.New("publishes unacknowledged at the end")
		}
		p.fail(unacked, err)
	}
	return err
}

// readAcks reads acknowledgements until the connection fails, records
// their latency and frees their packet ids; it answers PUBREC with PUBREL.
func (p *publisher) readAcks(c *clientConn, free chan<- uint16, sentNs []atomic.Int64, w *lockedWriter) error {
	rel := appendAck(nil, typePubrel, 0)
	unsent := false // PUBRELs written to the buffer, not yet to the socket
	for {
		// Before waiting for more, send the PUBRELs of what was read: a
		// PUBREL left in the buffer (the batch's last packet was a PUBCOMP,
		// say) holds its message at the broker, which delivers a QoS 2
		// message at its PUBREL, and never answers with the PUBCOMP.
		if unsent && c.rd.buffered() == 0 {
			if err := w.flush(); err != nil {
				return err
			}
			unsent = false
		}
		pk, err := c.rd.read()
		if err != nil {
			return err
		}
		kind := pk.kind()
		if kind != typePuback && kind != typePubcomp && kind != typePubrec {
			continue
		}
		id, err := ackID(pk)
		if err != nil {
			return err
		}
		if int(id) >= len(sentNs) {
			continue
		}
		if kind == typePubrec {
			rel[2], rel[3] = byte(id>>8), byte(id)
			if err := w.write(rel, false); err != nil {
				return err
			}
			unsent = true
			continue
		}
		t0 := sentNs[id].Swap(-1)
		if t0 < 0 {
			continue // not in flight: a duplicate
		}
		now := time.Now()
		p.acked++
		p.last = now
		p.lat.record(now.Sub(p.base).Nanoseconds() - t0)
		free <- id
	}
}

// lockedWriter is a connection's buffered writer shared by a publisher's
// writer and reader.
type lockedWriter struct {
	mu sync.Mutex
	w  *bufio.Writer
}

func (l *lockedWriter) write(b []byte, flush bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.w.Write(b); err != nil {
		return err
	}
	if flush {
		return l.w.Flush()
	}
	return nil
}

func (l *lockedWriter) flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Flush()
}

func (l *lockedWriter) buffered() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Buffered()
}
