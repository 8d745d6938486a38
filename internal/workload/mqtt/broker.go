package mqtt

import (
	"bufio"
	"net"
	"sync"
	"time"
)

// Broker is the embedded MQTT 3.1.1 broker that serves when mosquitto is
// absent (or asked for with broker: embedded). It does what the benchmark
// needs and no more: anonymous clients with clean sessions, QoS 0, 1 and 2
// in both directions, subscriptions with the + and # wildcards. It keeps no
// retained messages, wills or persistent sessions and never retransmits
// (clients are on a reliable connection that is closed on any error).
type Broker struct {
	ln net.Listener

	mu       sync.RWMutex
	sessions map[*brokerSession]struct{}
	closed   bool
	wg       sync.WaitGroup
}

// NewBroker listens at addr (host:port) and serves until Close.
func NewBroker(addr string) (*Broker, error) {
	ln, err := net.Listen("tcp4", addr)
	if err != nil {
		return nil, err
	}
	b := &Broker{ln: ln, sessions: map[*brokerSession]struct{}{}}
	b.wg.Add(1)
	go b.accept()
	return b, nil
}

// Addr is where the broker listens.
func (b *Broker) Addr() string { return b.ln.Addr().String() }

// Close stops listening, closes every connection and waits for their
// goroutines to end.
func (b *Broker) Close() error {
	b.mu.Lock()
	b.closed = true
	for s := range b.sessions {
		s.conn.Close()
	}
	b.mu.Unlock()
	err := b.ln.Close()
	b.wg.Wait()
	return err
}

func (b *Broker) accept() {
	defer b.wg.Done()
	for {
		c, err := b.ln.Accept()
		if err != nil {
			return
		}
		s := &brokerSession{broker: b, conn: c, w: bufio.NewWriterSize(c, 32<<10)}
		b.mu.Lock()
		if b.closed {
			b.mu.Unlock()
			c.Close()
			return
		}
		b.sessions[s] = struct{}{}
		b.wg.Add(1)
		b.mu.Unlock()
		go func() {
			defer b.wg.Done()
			s.serve()
			b.mu.Lock()
			delete(b.sessions, s)
			b.mu.Unlock()
			c.Close()
		}()
	}
}

// deliverTimeout is how long a delivery may wait for a subscriber's socket.
const deliverTimeout = 5 * time.Second

// brokerSession is one client's connection to the embedded broker.
type brokerSession struct {
	broker *Broker
	conn   net.Conn

	wmu     sync.Mutex // guards w, nextID and scratch
	w       *bufio.Writer
	nextID  uint16
	scratch []byte

	subs []subscription // guarded by broker.mu
}

// serve reads the session's packets until its connection ends.
func (s *brokerSession) serve() {
	rd := newReader(s.conn, 32<<10, maxRemaining)
	_ = s.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	p, err := rd.read()
	if err != nil || p.kind() != typeConnect {
		return
	}
	c, err := parseConnect(p)
	if err != nil {
		return
	}
	_ = s.conn.SetReadDeadline(time.Time{})
	if c.level != 4 && c.level != 3 {
		s.write(func(b []byte) []byte { return appendConnack(b, 1) }, true) // unacceptable protocol version
		return
	}
	if !s.write(func(b []byte) []byte { return appendConnack(b, 0) }, true) {
		return
	}
	var out []byte
	for {
		p, err := rd.read()
		if err != nil {
			return
		}
		out = out[:0]
		switch p.kind() {
		case typePublish:
			pub, err := parsePublish(p)
			if err != nil {
				return
			}
			s.broker.route(pub)
			out = appendPublishAck(out, pub)
		case typePubrel:
			id, err := ackID(p)
			if err != nil {
				return
			}
			out = appendAck(out, typePubcomp, id)
		case typePubrec: // of a QoS 2 message this broker sent
			id, err := ackID(p)
			if err != nil {
				return
			}
			out = appendAck(out, typePubrel, id)
		case typePuback, typePubcomp:
			// The end of an outgoing QoS 1 or 2 delivery: nothing is kept.
		case typeSubscribe:
			id, subs, err := parseSubscribe(p, false)
			if err != nil {
				return
			}
			granted := make([]byte, len(subs))
			for i, sub := range subs {
				granted[i] = sub.qos
			}
			s.broker.subscribe(s, subs)
			out = appendSuback(out, id, granted)
		case typeUnsubscribe:
			id, subs, err := parseSubscribe(p, true)
			if err != nil {
				return
			}
			s.broker.unsubscribe(s, subs)
			out = appendAck(out, typeUnsuback, id)
		case typePingreq:
			out = append(out, typePingresp<<4, 0)
		case typeDisconnect:
			return
		default:
			return // CONNECT twice or a server's packet: a protocol violation
		}
		if len(out) > 0 || rd.buffered() == 0 {
			// Replies wait while more packets are buffered, so a burst of
			// publishes is answered with one write.
			if !s.write(func(b []byte) []byte { return append(b, out...) }, rd.buffered() == 0) {
				return
			}
		}
	}
}

// write appends what add makes to the session's output under its lock and
// flushes when asked. It reports whether the connection still works.
func (s *brokerSession) write(add func([]byte) []byte, flush bool) bool {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.scratch = add(s.scratch[:0])
	if _, err := s.w.Write(s.scratch); err != nil {
		return false
	}
	if flush {
		if err := s.w.Flush(); err != nil {
			return false
		}
	}
	return true
}

// deliver sends a message to this session at the given QoS.
func (s *brokerSession) deliver(topic []byte, payload []byte, qos byte) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	var id uint16
	if qos > 0 {
		if s.nextID++; s.nextID == 0 {
			s.nextID = 1
		}
		id = s.nextID
	}
	s.scratch = appendPublish(s.scratch[:0], string(topic), qos, false, id, payload)
	// A subscriber that stops reading must not hold the publisher (and
	// the broker's lock) for ever: its connection is closed instead.
	_ = s.conn.SetWriteDeadline(time.Now().Add(deliverTimeout))
	if _, err := s.w.Write(s.scratch); err != nil || s.w.Flush() != nil {
		s.conn.Close()
	}
}

// route delivers a published message to every matching subscription, each
// session once at the highest QoS of its matching filters, capped by the
// message's QoS.
func (b *Broker) route(pub publish) {
	topic := string(pub.topic)
	b.mu.RLock()
	defer b.mu.RUnlock()
	for s := range b.sessions {
		best := -1
		for _, sub := range s.subs {
			if int(sub.qos) > best && topicMatch(sub.filter, topic) {
				best = int(sub.qos)
			}
		}
		if best >= 0 {
			s.deliver(pub.topic, pub.payload, min(byte(best), pub.qos))
		}
	}
}

func (b *Broker) subscribe(s *brokerSession, subs []subscription) {
	b.mu.Lock()
	defer b.mu.Unlock()
next:
	for _, n := range subs {
		for i, old := range s.subs {
			if old.filter == n.filter {
				s.subs[i] = n
				continue next
			}
		}
		s.subs = append(s.subs, n)
	}
}

func (b *Broker) unsubscribe(s *brokerSession, subs []subscription) {
	b.mu.Lock()
	defer b.mu.Unlock()
	keep := s.subs[:0]
	for _, old := range s.subs {
		drop := false
		for _, u := range subs {
			drop = drop || u.filter == old.filter
		}
		if !drop {
			keep = append(keep, old)
		}
	}
	s.subs = keep
}
