package mqtt

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// subscriber receives every message on the benchmark's topic and times it
// from the time stamp its publisher wrote into the payload.
type subscriber struct {
	conn     *clientConn
	base     time.Time
	received atomic.Int64
	e2e      histogram // written by run until done is closed
	done     chan struct{}
	err      error
	stopped  sync.Once
}

// startSubscribers connects and subscribes cfg.subscribers clients to the
// topic at the publishers' QoS and starts them reading. A subscriber that
// cannot is an error: the run could not measure what it was asked to.
func startSubscribers(ctx context.Context, c *config, addr string, base time.Time) ([]*subscriber, error) {
	var subs []*subscriber
	for i := 0; i < c.subscribers; i++ {
		conn, err := dialRetry(ctx, addr, "boxtax-sub-"+strconv.Itoa(i)+"-"+strconv.FormatInt(base.UnixNano()%1e9, 36))
		if err != nil {
			return subs, fmt.Errorf("subscriber %d: %w", i, err)
		}
		if err := conn.subscribe(c.topic, c.qos); err != nil {
			conn.Close()
			return subs, fmt.Errorf("subscriber %d: %w", i, err)
		}
		s := &subscriber{conn: conn, base: base, done: make(chan struct{})}
		go s.run()
		subs = append(subs, s)
	}
	return subs, nil
}

// run reads and acknowledges publishes until the connection ends.
func (s *subscriber) run() {
	defer close(s.done)
	w := bufio.NewWriterSize(s.conn, writeBufSize)
	var ack []byte
	for {
		p, err := s.conn.rd.read()
		if err != nil {
			s.err = err
			return
		}
		ack = ack[:0]
		switch p.kind() {
		case typePublish:
			pub, err := parsePublish(p)
			if err != nil {
				s.err = err
				return
			}
			if len(pub.payload) >= 8 {
				sent := int64(binary.LittleEndian.Uint64(pub.payload))
				s.e2e.record(time.Since(s.base).Nanoseconds() - sent)
			}
			s.received.Add(1)
			ack = appendPublishAck(ack, pub)
		case typePubrel:
			id, err := ackID(p)
			if err != nil {
				s.err = err
				return
			}
			ack = appendAck(ack, typePubcomp, id)
		}
		_, _ = w.Write(ack)
		if s.conn.rd.buffered() == 0 {
			if err := w.Flush(); err != nil {
				s.err = err
				return
			}
		}
	}
}

// stop ends the subscriber and waits for its reader.
func (s *subscriber) stop() {
	s.stopped.Do(func() {
		_ = s.conn.SetReadDeadline(time.Now())
		<-s.done
		s.conn.disconnect()
	})
}

// drainSubscribers waits until the subscribers received want messages in
// all, or nothing arrived for a second, or 10 s passed, stops them and
// returns what they received and their merged end-to-end times.
func drainSubscribers(ctx context.Context, subs []*subscriber, want int64) (int64, histogram) {
	total := func() int64 {
		var n int64
		for _, s := range subs {
			n += s.received.Load()
		}
		return n
	}
	limit := time.Now().Add(10 * time.Second)
	last, lastChange := total(), time.Now()
	for ctx.Err() == nil && last < want && time.Now().Before(limit) && time.Since(lastChange) < time.Second {
		time.Sleep(10 * time.Millisecond)
		if n := total(); n != last {
			last, lastChange = n, time.Now()
		}
	}
	var h histogram
	for _, s := range subs {
		s.stop()
		h.merge(&s.e2e)
	}
	return total(), h
}
