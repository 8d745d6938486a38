package mqtt

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// Client implements workload.Sides: subscribers (if any) and then
// publishers connect to the broker at addr, the publishers publish together
// for the duration (or their message count), subscribers drain what was
// delivered, and the session ends with a message to controlTopic that tells
// the server it may stop the broker.
func (c *config) Client(ctx context.Context, addr string, e workload.Emitter) error {
	base := time.Now()
	ctl, err := dialRetry(ctx, addr, "boxtax-control-"+strconv.FormatInt(base.UnixNano()%1e9, 36))
	if err != nil {
		return err
	}
	defer func() {
		// The end of the session: the server stops its broker.
		if err := ctl.publishWait(controlTopic, []byte("end"), 2*time.Second); err != nil {
			e.Note("session_end", "could not tell the server the session is over: "+err.Error())
		}
		ctl.disconnect()
	}()

	subs, err := startSubscribers(ctx, c, addr, base)
	defer func() {
		for _, s := range subs {
			s.stop()
		}
	}()
	if err != nil {
		return err
	}

	pubs := make([]*publisher, c.clients)
	var wg sync.WaitGroup
	for i := range pubs {
		pubs[i] = newPublisher(i, c, addr, base)
		wg.Add(1)
		go func() { defer wg.Done(); pubs[i].connect(ctx, true) }()
	}
	wg.Wait()
	start := time.Now()
	deadline := start.Add(c.duration)
	for _, p := range pubs {
		wg.Add(1)
		go func() { defer wg.Done(); p.run(ctx, start, deadline) }()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}

	var r result
	for _, p := range pubs {
		r.addPublisher(p)
	}
	if len(subs) > 0 {
		r.received, r.e2e = drainSubscribers(ctx, subs, r.acked*int64(len(subs)))
	}
	r.emit(c, e)
	if r.acked == 0 {
		return fmt.Errorf("no message was acknowledged in %v (%d errors): %w", c.duration, r.failed, r.firstErr)
	}
	return nil
}

// dialRetry connects to a broker that may not be reachable yet (its
// container still starting, the path to it not yet set up), for at most
// 15 s: a refused connection is tried again after 20 ms, a timed-out one
// (5 s, the kernel retrying its SYN meanwhile) at once. Seen once here:
// the first run of a study in docker-bridge across a netns wire timed out.
func dialRetry(ctx context.Context, addr, clientID string) (*clientConn, error) {
	deadline := time.Now().Add(15 * time.Second)
	for {
		c, err := dialMQTT(ctx, addr, clientID)
		if err == nil {
			return c, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var ne net.Error
		timedOut := errors.As(err, &ne) && ne.Timeout()
		if !errors.Is(err, syscall.ECONNREFUSED) && !timedOut || time.Now().After(deadline) {
			return nil, err
		}
		if !timedOut {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// result is what all publishers and subscribers of a session measured.
type result struct {
	acked, failed int64
	first, last   time.Time
	clientRates   []float64
	ack           histogram
	firstErr      error
	down          time.Duration // summed over clients
	received      int64
	e2e           histogram
}

func (r *result) addPublisher(p *publisher) {
	r.acked += p.acked
	r.failed += p.failed
	r.ack.merge(&p.lat)
	r.down += p.down
	if r.firstErr == nil {
		r.firstErr = p.firstErr
	}
	rate := 0.0
	if p.acked > 0 {
		if r.first.IsZero() || p.first.Before(r.first) {
			r.first = p.first
		}
		if p.last.After(r.last) {
			r.last = p.last
		}
		if d := p.last.Sub(p.first).Seconds(); d > 0 {
			rate = float64(p.acked) / d
		}
	}
	r.clientRates = append(r.clientRates, rate)
}

func (r *result) emit(c *config, e workload.Emitter) {
	e.Note("clients", strconv.Itoa(c.clients))
	e.Note("qos", strconv.Itoa(int(c.qos)))
	e.Note("payload_bytes", strconv.Itoa(c.payload))
	e.Note("inflight", strconv.Itoa(c.inflight))
	e.Note("messages_acknowledged", strconv.FormatInt(r.acked, 10))
	attempts := r.acked + r.failed
	if attempts > 0 {
		e.Sample("errors", float64(r.failed))
		e.Sample("error_pct", 100*float64(r.failed)/float64(attempts))
	}
	if r.firstErr != nil {
		e.Note("first_error", r.firstErr.Error())
	}
	if r.down > 0 {
		e.Note("disconnected_s", strconv.FormatFloat(r.down.Seconds(), 'f', 3, 64))
	}
	if r.acked == 0 {
		return
	}
	wall := r.last.Sub(r.first).Seconds()
	e.Note("seconds", strconv.FormatFloat(wall, 'f', 6, 64))
	if wall > 0 {
		e.Sample("msgs_per_s", float64(r.acked)/wall)
	}
	sum := 0.0
	for _, v := range r.clientRates {
		sum += v
	}
	e.Sample("client_msgs_per_s", sum/float64(len(r.clientRates)))
	if r.ack.Count() > 0 {
		e.Sample("ack_mean_ms", r.ack.mean()/1e6)
		e.Sample("ack_std_ms", r.ack.std()/1e6)
		e.Sample("ack_p50_ms", r.ack.quantile(0.50)/1e6)
		e.Sample("ack_p99_ms", r.ack.quantile(0.99)/1e6)
	}
	if c.subscribers > 0 {
		e.Note("subscribers", strconv.Itoa(c.subscribers))
		e.Note("messages_received", strconv.FormatInt(r.received, 10))
		if want := r.acked * int64(c.subscribers); want > 0 {
			e.Note("received_pct", strconv.FormatFloat(100*float64(r.received)/float64(want), 'f', 2, 64))
		}
		if r.e2e.Count() > 0 {
			e.Sample("e2e_mean_ms", r.e2e.mean()/1e6)
			e.Sample("e2e_p50_ms", r.e2e.quantile(0.50)/1e6)
			e.Sample("e2e_p99_ms", r.e2e.quantile(0.99)/1e6)
		}
	}
}
