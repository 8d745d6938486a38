package ingest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
	"sync"
	"time"
)

// device is one simulated device: a keep-alive connection of its own
// through which it POSTs its readings, one at a time, each as soon as the
// last was answered. What it needs per message is made once, so a message
// costs two system calls and no allocation: thousands of devices fit on a
// small machine beside the system under test.
type device struct {
	addr string
	rng  *rand.PCG
	req  []byte // the request, its body at the end
	warm []byte // the same with the warm-up header
	body int    // length of the body

	mu   sync.Mutex // guards conn against interrupt
	conn net.Conn
	r    *bufio.Reader

	// Counted in the measured time only.
	ok, httpErrors, transportErrors uint64
	statuses                        map[int]uint64 // error statuses
	warmupErrors                    uint64
}

func newDevice(id int, addr string, payload int, seed uint64) *device {
	path := fmt.Sprintf("/devices/dev-%05d/messages", id)
	head := "POST " + path + " HTTP/1.1\r\nHost: ingest\r\nContent-Type: application/octet-stream\r\nContent-Length: " + strconv.Itoa(payload) + "\r\n"
	d := &device{addr: addr, rng: rand.NewPCG(seed, uint64(id)), body: payload}
	d.req = append([]byte(head+"\r\n"), make([]byte, payload)...)
	d.warm = append([]byte(head+headerWarmup+": 1\r\n\r\n"), make([]byte, payload)...)
	return d
}

// errDial marks a failure to connect, after which a device waits a little
// before it tries again rather than spin.
var errDial = errors.New("cannot connect")

// send sends one message and reads its answer: the status, or an error when
// there was no answer.
func (d *device) send(ctx context.Context, warm bool) (int, error) {
	c, r, err := d.connection(ctx)
	if err != nil {
		return 0, err
	}
	req := d.req
	if warm {
		req = d.warm
	}
	body := req[len(req)-d.body:]
	for i := 0; i < len(body); i += 8 { // 36 random bytes, as the seed's devices
		v := d.rng.Uint64()
		for j := i; j < min(i+8, len(body)); j++ {
			body[j] = byte(v)
			v >>= 8
		}
	}
	if _, err := c.Write(req); err != nil {
		d.drop()
		return 0, err
	}
	status, keep, err := readResponse(r)
	if err != nil || !keep {
		d.drop()
	}
	return status, err
}

// connection is the device's connection, made when it has none.
func (d *device) connection(ctx context.Context) (net.Conn, *bufio.Reader, error) {
	d.mu.Lock()
	c, r := d.conn, d.r
	d.mu.Unlock()
	if c != nil {
		return c, r, nil
	}
	var dialer net.Dialer
	c, err := dialer.DialContext(ctx, "tcp4", d.addr)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", errDial, err)
	}
	if r == nil {
		r = bufio.NewReaderSize(c, 1024)
	} else {
		r.Reset(c)
	}
	d.mu.Lock()
	d.conn, d.r = c, r
	d.mu.Unlock()
	if ctx.Err() != nil { // interrupted while dialling
		d.drop()
		return nil, nil, ctx.Err()
	}
	return c, r, nil
}

// drop closes the connection; the next message makes a new one.
func (d *device) drop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.conn != nil {
		d.conn.Close()
		d.conn = nil
	}
}

// interrupt ends the message in flight, if any, at once.
func (d *device) interrupt() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.conn != nil {
		_ = d.conn.SetDeadline(time.Unix(1, 0))
	}
}

// countError counts a failed message of the measured time.
func (d *device) countError(status int, err error) {
	if err != nil {
		d.transportErrors++
		return
	}
	d.httpErrors++
	if d.statuses == nil {
		d.statuses = map[int]uint64{}
	}
	d.statuses[status]++
}

// readResponse reads one HTTP/1.1 response and skips its body; keep tells
// whether the connection may carry another request.
func readResponse(r *bufio.Reader) (status int, keep bool, err error) {
	line, err := r.ReadSlice('\n')
	if err != nil {
		return 0, false, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, false, fmt.Errorf("not an HTTP response: %q", line)
	}
	status, err = strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, false, fmt.Errorf("bad status line %q", line)
	}
	keep = line[7] == '1' // HTTP/1.1 keeps the connection unless told otherwise
	length, chunked := 0, false
	for {
		line, err = r.ReadSlice('\n')
		if err != nil {
			return 0, false, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil || length < 0 {
				return 0, false, fmt.Errorf("bad Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			if bytes.EqualFold(value, []byte("close")) {
				keep = false
			}
		}
	}
	if chunked {
		return status, keep, skipChunks(r)
	}
	_, err = r.Discard(length)
	return status, keep, err
}

// skipChunks reads a chunked body to its end.
func skipChunks(r *bufio.Reader) error {
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return err
		}
		sz, _, _ := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(";"))
		n, err := strconv.ParseInt(string(sz), 16, 64)
		if err != nil {
			return fmt.Errorf("bad chunk size %q", line)
		}
		if n == 0 {
			for { // trailers up to the empty line
				line, err := r.ReadSlice('\n')
				if err != nil {
					return err
				}
				if len(bytes.TrimRight(line, "\r\n")) == 0 {
					return nil
				}
			}
		}
		if _, err := r.Discard(int(n) + 2); err != nil {
			return err
		}
	}
}
