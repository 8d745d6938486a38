package mqtt

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"
)

// Sizes of a client connection's buffers and the largest packet it takes.
const (
	readBufSize  = 64 << 10
	writeBufSize = 64 << 10
	maxBody      = 2 << 20
)

// connectTimeout bounds a connection attempt: dial, CONNECT and CONNACK.
const connectTimeout = 5 * time.Second

// clientConn is an MQTT connection after a successful CONNECT.
type clientConn struct {
	net.Conn
	rd *reader
}

// dialMQTT connects to the broker at addr as clientID with a clean session
// and no keep-alive (the benchmark's clients are never idle for long, and a
// subscriber's silence must not end its connection).
func dialMQTT(ctx context.Context, addr, clientID string) (*clientConn, error) {
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp4", addr)
	if err != nil {
		return nil, fmt.Errorf("cannot connect to the broker at %s: %w", addr, err)
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if _, err := c.Write(appendConnect(nil, clientID, 0)); err != nil {
		c.Close()
		return nil, fmt.Errorf("sending CONNECT to %s: %w", addr, err)
	}
	rd := newReader(c, readBufSize, maxBody)
	p, err := rd.read()
	if err == nil && (p.kind() != typeConnack || len(p.body) < 2) {
		err = fmt.Errorf("%w: expected CONNACK, got packet type %d", errMalformed, p.kind())
	}
	if err != nil {
		c.Close()
		if ctx.Err() != nil {
			err = errors.Join(err, ctx.Err())
		}
		return nil, fmt.Errorf("waiting for CONNACK from %s: %w", addr, err)
	}
	if code := p.body[1]; code != 0 {
		c.Close()
		return nil, fmt.Errorf("the broker at %s refused the connection: %s", addr, connackReason(code))
	}
	return &clientConn{Conn: c, rd: rd}, nil
}

func connackReason(code byte) string {
	switch code {
	case 1:
		return "unacceptable protocol version"
	case 2:
		return "client identifier rejected"
	case 3:
		return "server unavailable"
	case 4:
		return "bad user name or password"
	case 5:
		return "not authorized"
	}
	return fmt.Sprintf("return code %d", code)
}

// subscribe subscribes to filter at qos and waits for the SUBACK.
func (c *clientConn) subscribe(filter string, qos byte) error {
	_ = c.SetDeadline(time.Now().Add(connectTimeout))
	defer c.SetDeadline(time.Time{})
	if _, err := c.Write(appendSubscribe(nil, 1, filter, qos)); err != nil {
		return fmt.Errorf("subscribing to %s: %w", filter, err)
	}
	for {
		p, err := c.rd.read()
		if err != nil {
			return fmt.Errorf("waiting for SUBACK: %w", err)
		}
		if p.kind() != typeSuback {
			continue
		}
		if len(p.body) < 3 || p.body[2] == 0x80 {
			return fmt.Errorf("the broker refused the subscription to %s", filter)
		}
		return nil
	}
}

// publishWait publishes one message at QoS 1 and waits for its PUBACK,
// at most timeout.
func (c *clientConn) publishWait(topic string, payload []byte, timeout time.Duration) error {
	_ = c.SetDeadline(time.Now().Add(timeout))
	defer c.SetDeadline(time.Time{})
	if _, err := c.Write(appendPublish(nil, topic, 1, false, 1, payload)); err != nil {
		return err
	}
	for {
		p, err := c.rd.read()
		if err != nil {
			return err
		}
		if p.kind() == typePuback {
			return nil
		}
	}
}

// disconnect says DISCONNECT and closes the connection.
func (c *clientConn) disconnect() {
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = c.Write([]byte{typeDisconnect << 4, 0})
	c.Close()
}
