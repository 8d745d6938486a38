package gateway

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
	"time"
)

// dialRetry is how long a client keeps trying to reach a gateway that is
// not listening yet (its container is still starting, say).
const dialRetry = 10 * time.Second

// session is the client's hold on the gateway: a request to SessionPath
// that the gateway keeps open until the client closes it. held is false
// for a server that has no sessions (any other HTTP server): it is loaded
// all the same.
type session struct {
	conn net.Conn
	held bool
}

// openSession opens the session with the gateway at addr.
func openSession(ctx context.Context, addr string) (*session, error) {
	deadline := time.Now().Add(dialRetry)
	var d net.Dialer
	var c net.Conn
	for {
		var err error
		c, err = d.DialContext(ctx, "tcp", addr)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !errors.Is(err, syscall.ECONNREFUSED) || time.Now().After(deadline) {
			return nil, fmt.Errorf("cannot connect to the gateway at %s: %w", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = c.SetDeadline(time.Now().Add(dialRetry))
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: boxtax\r\n\r\n", SessionPath, addr); err != nil {
		c.Close()
		return nil, fmt.Errorf("opening a session with the gateway at %s: %w", addr, err)
	}
	buf := make([]byte, 0, 1024)
	for !bytes.Contains(buf, headerEnd) {
		if len(buf) == cap(buf) {
			break
		}
		n, err := c.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("opening a session with the server at %s: %w", addr, err)
		}
	}
	_ = c.SetDeadline(time.Time{})
	if bytes.HasPrefix(buf, []byte("HTTP/1.1 200")) || bytes.HasPrefix(buf, []byte("HTTP/1.0 200")) {
		return &session{conn: c, held: true}, nil
	}
	c.Close()
	return &session{}, nil
}

// close ends the session: the gateway then ends.
func (s *session) close() {
	if s.conn != nil {
		s.conn.Close()
	}
}
