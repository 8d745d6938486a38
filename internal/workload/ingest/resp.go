package ingest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// redisConn is a minimal RESP2 client: one connection, one command at a
// time, the reply read whole. Commands are built in a buffer that is kept,
// so a command allocates nothing beyond what the reply needs.
type redisConn struct {
	c   net.Conn
	r   *bufio.Reader
	buf []byte
}

// dialRedis connects to redis at addr: "unix:/path" or host:port.
func dialRedis(ctx context.Context, addr string) (*redisConn, error) {
	network, a := "tcp", addr
	if p, ok := strings.CutPrefix(addr, "unix:"); ok {
		network, a = "unix", p
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, network, a)
	if err != nil {
		return nil, fmt.Errorf("connecting to redis at %s: %w", addr, err)
	}
	return &redisConn{c: c, r: bufio.NewReaderSize(c, 4096), buf: make([]byte, 0, 256)}, nil
}

// close closes the connection.
func (r *redisConn) close() error { return r.c.Close() }

// redisError is an error reply (-ERR ...).
type redisError string

func (e redisError) Error() string { return "redis: " + string(e) }

// do sends one command and returns its reply: a string for simple and bulk
// strings, int64 for integers, nil for a null, []any for arrays; an error
// reply comes back as a redisError. deadline bounds the round trip (zero:
// none).
func (r *redisConn) do(deadline time.Time, args ...[]byte) (any, error) {
	b := r.buf[:0]
	b = append(b, '*')
	b = strconv.AppendInt(b, int64(len(args)), 10)
	b = append(b, '\r', '\n')
	for _, a := range args {
		b = append(b, '$')
		b = strconv.AppendInt(b, int64(len(a)), 10)
		b = append(b, '\r', '\n')
		b = append(b, a...)
		b = append(b, '\r', '\n')
	}
	r.buf = b
	_ = r.c.SetDeadline(deadline)
	if _, err := r.c.Write(b); err != nil {
		return nil, fmt.Errorf("redis: sending: %w", err)
	}
	v, err := r.reply()
	if err != nil {
		return nil, err
	}
	if e, ok := v.(redisError); ok {
		return nil, e
	}
	return v, nil
}

// doStrings is do with string arguments, for tests and set-up.
func (r *redisConn) doStrings(args ...string) (any, error) {
	bs := make([][]byte, len(args))
	for i, a := range args {
		bs[i] = []byte(a)
	}
	return r.do(time.Now().Add(10*time.Second), bs...)
}

// reply reads one RESP2 value.
func (r *redisConn) reply() (any, error) {
	line, err := r.line()
	if err != nil {
		return nil, err
	}
	if len(line) == 0 {
		return nil, errors.New("redis: empty reply line")
	}
	body := line[1:]
	switch line[0] {
	case '+':
		return string(body), nil
	case '-':
		return redisError(body), nil
	case ':':
		n, err := strconv.ParseInt(string(body), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("redis: bad integer reply %q", line)
		}
		return n, nil
	case '$':
		n, err := replyLength("bulk", line)
		if err != nil || n < 0 {
			return nil, err
		}
		b := make([]byte, n+2)
		if _, err := io.ReadFull(r.r, b); err != nil {
			return nil, fmt.Errorf("redis: reading a bulk string: %w", err)
		}
		return string(b[:n]), nil
	case '*':
		n, err := replyLength("array", line)
		if err != nil || n < 0 {
			return nil, err
		}
		out := make([]any, n)
		for i := range out {
			if out[i], err = r.reply(); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("redis: unknown reply type %q", line)
}

// replyLength is the length a bulk string's or an array's reply line
// gives (what: "bulk", "array"); -1 is a null reply.
func replyLength(what string, line []byte) (int, error) {
	n, err := strconv.Atoi(string(line[1:]))
	if err != nil {
		return 0, fmt.Errorf("redis: bad %s length %q", what, line)
	}
	return n, nil
}

// line reads one CRLF-terminated line without its CRLF. The slice is valid
// until the next read.
func (r *redisConn) line() ([]byte, error) {
	line, err := r.r.ReadSlice('\n')
	if err != nil {
		return nil, fmt.Errorf("redis: reading a reply: %w", err)
	}
	if len(line) < 2 || line[len(line)-2] != '\r' {
		return nil, fmt.Errorf("redis: reply line without CRLF: %q", line)
	}
	return line[:len(line)-2], nil
}
