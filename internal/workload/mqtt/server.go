package mqtt

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// brokerStartTimeout bounds how long a broker may take to accept its first
// connection.
const brokerStartTimeout = 15 * time.Second

// Serve implements workload.Sides: it starts the broker at addr (the
// real mosquitto, or the embedded one), says NoteListening once it accepts
// MQTT connections, and keeps it until the client's session is over (the
// client publishes to controlTopic at its end), the broker dies, or ctx
// ends. It stops and reaps the broker in every case.
func (c *config) Serve(ctx context.Context, addr string, e workload.Emitter) error {
	var err error
	path := ""
	if c.broker != brokerEmbedded {
		path = findMosquitto()
	}
	var (
		listenAddr string
		died       <-chan struct{} // closed when the broker process exited
		m          *mosquitto
	)
	if path != "" {
		if m, err = startMosquitto(path, addr); err != nil {
			return err
		}
		defer m.stop()
		listenAddr, died = m.addr, m.exited
		e.Note("broker", m.version)
		e.Note("broker_path", path)
	} else {
		b, err := NewBroker(addr)
		if err != nil {
			return fmt.Errorf("cannot listen on %s/tcp: %w", addr, err)
		}
		defer b.Close()
		listenAddr = b.Addr()
		e.Note("broker", "embedded (boxtax, Go)")
		if c.broker == brokerAuto {
			e.Note("broker_reason", "mosquitto is not installed in this environment (looked on PATH and in "+strings.Join(mosquittoDirs, ", ")+")")
		}
	}
	w, err := watchSession(ctx, dialAddr(listenAddr), died)
	if err != nil {
		if m != nil {
			select {
			case <-m.exited:
				return fmt.Errorf("mosquitto ended before accepting connections: %s", m.exitReason())
			default:
			}
		}
		return err
	}
	defer w.conn.Close()
	e.Note(workload.NoteListening, listenAddr)
	select {
	case <-w.ended:
		return nil
	case <-died:
		// The client's figures show what it did to the run; the server
		// says why and lets them stand.
		e.Note("broker_exit", "mosquitto ended during the run: "+m.exitReason())
		return nil
	case <-w.lost:
		if m != nil {
			select {
			case <-m.exited:
				e.Note("broker_exit", "mosquitto ended during the run: "+m.exitReason())
				return nil
			case <-time.After(time.Second):
			}
		}
		e.Note("session_watch", "the broker closed the server's watching connection before the session ended")
		<-ctx.Done()
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sessionWatch is the server's own MQTT connection to its broker, which
// learns when the client's session is over.
type sessionWatch struct {
	conn  *clientConn
	ended chan struct{} // closed when the client said its session is over
	lost  chan struct{} // closed when the connection failed first
}

// watchSession connects to the broker at addr, retrying until it accepts
// or died is closed, and subscribes to controlTopic.
func watchSession(ctx context.Context, addr string, died <-chan struct{}) (*sessionWatch, error) {
	deadline := time.Now().Add(brokerStartTimeout)
	var conn *clientConn
	for {
		var err error
		if conn, err = dialMQTT(ctx, addr, "boxtax-server"); err == nil {
			if err = conn.subscribe(controlTopic, 1); err == nil {
				break
			}
			conn.Close()
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		select {
		case <-died:
			return nil, errors.New("the broker ended before accepting connections")
		default:
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the broker did not accept MQTT connections at %s within %v: %w", addr, brokerStartTimeout, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	w := &sessionWatch{conn: conn, ended: make(chan struct{}), lost: make(chan struct{})}
	go func() {
		for {
			p, err := conn.rd.read()
			if err != nil {
				close(w.lost)
				return
			}
			if p.kind() != typePublish {
				continue
			}
			pub, err := parsePublish(p)
			if err != nil {
				close(w.lost)
				return
			}
			if pub.qos == 1 {
				_, _ = conn.Write(appendAck(nil, typePuback, pub.id))
			}
			if string(pub.topic) == controlTopic {
				close(w.ended)
				return
			}
		}
	}()
	return w, nil
}
