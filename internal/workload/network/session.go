package network

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// helloSize is the length of the hello every TCP connection starts with:
// "BXT1", the kind of connection, a spare byte, the stream index and the
// session id.
const helloSize = 16

const helloMagic = "BXT1"

// Kinds of TCP connection in a session.
const (
	kindControl byte = 'c'
	kindData    byte = 'd'
)

// hello is what a TCP connection says first.
type hello struct {
	kind    byte
	stream  uint16
	session uint64
}

func (h hello) marshal() []byte {
	b := make([]byte, helloSize)
	copy(b, helloMagic)
	b[4] = h.kind
	binary.BigEndian.PutUint16(b[6:], h.stream)
	binary.BigEndian.PutUint64(b[8:], h.session)
	return b
}

func readHello(r io.Reader) (hello, error) {
	b := make([]byte, helloSize)
	if _, err := io.ReadFull(r, b); err != nil {
		return hello{}, err
	}
	if string(b[:4]) != helloMagic {
		return hello{}, errors.New("not a boxtax client (bad hello)")
	}
	return hello{kind: b[4], stream: binary.BigEndian.Uint16(b[6:]), session: binary.BigEndian.Uint64(b[8:])}, nil
}

// newSessionID draws a random session id.
func newSessionID() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.BigEndian.Uint64(b[:]) | 1 // never 0
}

// server is the listening side of a session: a TCP listener and, for
// workloads that need it, a UDP socket on the same port number.
type server struct {
	ln  *net.TCPListener
	udp *net.UDPConn // nil unless asked for

	mu      sync.Mutex
	sid     uint64        // the session, set by the first control connection
	sidSet  chan struct{} // closed when sid is set
	control chan *net.TCPConn
	data    chan *dataConn
	done    chan struct{}
}

// dataConn is a data connection with its stream index.
type dataConn struct {
	*net.TCPConn
	stream int
}

// listen opens the server's sockets at addr. With port 0 it picks a port
// that is free for TCP and, when withUDP, for UDP too.
func listen(addr string, withUDP bool) (*server, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", addr, err)
	}
	var lastErr error
	for try := 0; try < 20; try++ {
		ln, err := net.Listen("tcp4", net.JoinHostPort(host, port))
		if err != nil {
			return nil, listenError("tcp", addr, err)
		}
		s := &server{ln: ln.(*net.TCPListener), control: make(chan *net.TCPConn, 1), data: make(chan *dataConn, 64), done: make(chan struct{}), sidSet: make(chan struct{})}
		if withUDP {
			p := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
			pc, err := net.ListenPacket("udp4", net.JoinHostPort(host, p))
			if err != nil {
				ln.Close()
				lastErr = listenError("udp", net.JoinHostPort(host, p), err)
				if port == "0" && errors.Is(err, syscall.EADDRINUSE) {
					continue // the TCP port's UDP twin is taken: another port
				}
				return nil, lastErr
			}
			s.udp = pc.(*net.UDPConn)
			// A receive buffer for bursts; the send buffer stays the
			// kernel's, see sendDatagrams.
			_ = s.udp.SetReadBuffer(4 << 20)
		}
		go s.accept()
		return s, nil
	}
	return nil, lastErr
}

func listenError(proto, addr string, err error) error {
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("cannot listen on %s/%s: the port is in use by another program; free it or let boxtax pick a port", addr, proto)
	}
	return fmt.Errorf("cannot listen on %s/%s: %w", addr, proto, err)
}

// addr is where the server listens, host:port.
func (s *server) addr() string { return s.ln.Addr().String() }

// close closes every socket of the server and ends the accepting.
func (s *server) close() {
	s.mu.Lock()
	select {
	case <-s.done:
	default:
		close(s.done)
	}
	s.mu.Unlock()
	s.ln.Close()
	if s.udp != nil {
		s.udp.Close()
	}
}

// accept sorts incoming connections by their hello: the first control
// connection fixes the session; data connections of other sessions and
// anything that does not say hello within 10 s are closed.
func (s *server) accept() {
	for {
		c, err := s.ln.AcceptTCP()
		if err != nil {
			return
		}
		go func() {
			_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
			h, err := readHello(c)
			_ = c.SetReadDeadline(time.Time{})
			if err != nil {
				c.Close()
				return
			}
			if h.kind == kindData {
				// A data connection may say hello before its session's
				// control connection is sorted: wait for that.
				select {
				case <-s.sidSet:
				case <-s.done:
				case <-time.After(10 * time.Second):
				}
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			select {
			case <-s.done:
				c.Close()
				return
			default:
			}
			switch {
			case h.kind == kindControl && s.sid == 0:
				s.sid = h.session
				close(s.sidSet)
				s.control <- c
			case h.kind == kindData && h.session == s.sid && s.sid != 0:
				select {
				case s.data <- &dataConn{TCPConn: c, stream: int(h.stream)}:
				default:
					c.Close()
				}
			default:
				c.Close()
			}
		}()
	}
}

// session waits for the client's control connection.
func (s *server) session(ctx context.Context) (*control, error) {
	select {
	case c := <-s.control:
		return newControl(ctx, c), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// serveSession listens at addr (on UDP too when withUDP), notes where,
// and waits for a client's session. end ends the session and closes the
// server; call it once, when the server is done.
func serveSession(ctx context.Context, addr string, withUDP bool, e workload.Emitter) (s *server, ctl *control, end func(), err error) {
	if s, err = listen(addr, withUDP); err != nil {
		return nil, nil, nil, err
	}
	e.Note(workload.NoteListening, s.addr())
	if ctl, err = s.session(ctx); err != nil {
		s.close()
		return nil, nil, nil, err
	}
	return s, ctl, func() { ctl.end(); s.close() }, nil
}

// sessionID is the session the server serves (0 before a client came).
func (s *server) sessionID() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sid
}

// dataConns waits for n data connections of the session, in stream order.
func (s *server) dataConns(ctx context.Context, n int, ctl *control) ([]*net.TCPConn, error) {
	out := make([]*net.TCPConn, n)
	timeout := time.NewTimer(30 * time.Second)
	defer timeout.Stop()
	for got := 0; got < n; {
		select {
		case c := <-s.data:
			if c.stream >= n || out[c.stream] != nil {
				c.Close()
				continue
			}
			out[c.stream] = c.TCPConn
			got++
		case <-ctl.closed:
			return nil, errors.New("the client closed the session before opening its data connections")
		case <-timeout.C:
			return nil, fmt.Errorf("the client opened %d of %d data connections within 30 s", got, n)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return out, nil
}

// control is the control connection of a session: JSON lines both ways.
type control struct {
	conn   *net.TCPConn
	r      *bufio.Reader
	enc    *json.Encoder
	closed chan struct{} // closed when the connection is closed, by either side or by ctx
	once   sync.Once
	stop   func() bool
}

func newControl(ctx context.Context, c *net.TCPConn) *control {
	ctl := &control{conn: c, r: bufio.NewReader(c), enc: json.NewEncoder(c), closed: make(chan struct{})}
	ctl.stop = context.AfterFunc(ctx, ctl.close)
	return ctl
}

func (c *control) close() {
	c.once.Do(func() {
		close(c.closed)
		c.conn.Close()
	})
}

// send writes one message.
func (c *control) send(v any) error {
	if err := c.enc.Encode(v); err != nil {
		return fmt.Errorf("control connection: %w", err)
	}
	return nil
}

// recv reads one message, waiting at most timeout.
func (c *control) recv(v any, timeout time.Duration) error {
	_ = c.conn.SetReadDeadline(time.Now().Add(timeout))
	defer c.conn.SetReadDeadline(time.Time{})
	line, err := c.r.ReadBytes('\n')
	if err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("the other side closed the control connection")
		}
		return fmt.Errorf("control connection: %w", err)
	}
	if err := json.Unmarshal(line, v); err != nil {
		return fmt.Errorf("control connection: bad message %q: %w", line, err)
	}
	return nil
}

// waitClosed waits until the peer closes the control connection (the end
// of a session), at most timeout.
func (c *control) waitClosed(timeout time.Duration) {
	_ = c.conn.SetReadDeadline(time.Now().Add(timeout))
	_, _ = io.Copy(io.Discard, c.r)
}

// end closes the control connection and stops watching ctx.
func (c *control) end() {
	c.stop()
	c.close()
}

// dialRetry is how long a client keeps trying to reach a server that is
// not listening yet (its container is still starting, say).
const dialRetry = 10 * time.Second

// dial opens a TCP connection of a session and says hello.
func dial(ctx context.Context, addr string, h hello) (*net.TCPConn, error) {
	deadline := time.Now().Add(dialRetry)
	var d net.Dialer
	for {
		c, err := d.DialContext(ctx, "tcp4", addr)
		if err == nil {
			tc := c.(*net.TCPConn)
			if _, err := tc.Write(h.marshal()); err != nil {
				tc.Close()
				return nil, fmt.Errorf("saying hello to %s: %w", addr, err)
			}
			return tc, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !errors.Is(err, syscall.ECONNREFUSED) || time.Now().After(deadline) {
			return nil, fmt.Errorf("cannot connect to the server at %s: %w", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// clientSession is the client's side of a session.
type clientSession struct {
	addr string
	id   uint64
	ctl  *control
}

// connect opens a session with the server at addr.
func connect(ctx context.Context, addr string) (*clientSession, error) {
	id := newSessionID()
	c, err := dial(ctx, addr, hello{kind: kindControl, session: id})
	if err != nil {
		return nil, err
	}
	return &clientSession{addr: addr, id: id, ctl: newControl(ctx, c)}, nil
}

// data opens data connection i of the session.
func (cs *clientSession) data(ctx context.Context, i int) (*net.TCPConn, error) {
	return dial(ctx, cs.addr, hello{kind: kindData, stream: uint16(i), session: cs.id})
}

// closeAll closes connections; nil entries are skipped.
func closeAll(conns []*net.TCPConn) {
	for _, c := range conns {
		if c != nil {
			c.Close()
		}
	}
}

// tcpMSS is the connection's maximum segment size: it shows the path's MTU
// (1448 on a 1500-byte Ethernet link with timestamps).
func tcpMSS(c *net.TCPConn) int {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0
	}
	mss := 0
	_ = raw.Control(func(fd uintptr) {
		mss, _ = syscall.GetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_MAXSEG)
	})
	return mss
}
