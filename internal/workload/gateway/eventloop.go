package gateway

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sockaddr is a resolved IPv4 or IPv6 address, as connect(2) takes it:
// a sockaddr_in or sockaddr_in6, read-only, so every event loop shares it.
type sockaddr struct {
	family int
	raw    []byte
}

func newSockaddr(a *net.TCPAddr) sockaddr {
	if ip4 := a.IP.To4(); ip4 != nil {
		var sa unix.RawSockaddrInet4
		sa.Family = unix.AF_INET
		binary.BigEndian.PutUint16((*[2]byte)(unsafe.Pointer(&sa.Port))[:], uint16(a.Port))
		copy(sa.Addr[:], ip4)
		return sockaddr{unix.AF_INET, unsafe.Slice((*byte)(unsafe.Pointer(&sa)), unsafe.Sizeof(sa))}
	}
	var sa unix.RawSockaddrInet6
	sa.Family = unix.AF_INET6
	binary.BigEndian.PutUint16((*[2]byte)(unsafe.Pointer(&sa.Port))[:], uint16(a.Port))
	copy(sa.Addr[:], a.IP.To16())
	if a.Zone != "" {
		if ifi, err := net.InterfaceByName(a.Zone); err == nil {
			sa.Scope_id = uint32(ifi.Index)
		}
	}
	return sockaddr{unix.AF_INET6, unsafe.Slice((*byte)(unsafe.Pointer(&sa)), unsafe.Sizeof(sa))}
}

// States of a client connection.
const (
	stIdle       = iota // between requests, or done
	stConnecting        // waiting for the TCP handshake
	stWriting           // the request is partly written
	stReading           // waiting for the response
	stDraining          // the response came; waiting for the server to close (no keep-alive)
	stBackoff           // waiting after a failed connection attempt
	stDone              // no more requests
)

// client is one of the load's concurrent connections: a closed loop of
// requests, driven by its event loop.
type client struct {
	idx     int
	fd      int   // -1: no socket
	gen     int32 // counts sockets, so an event for a closed one is ignored
	state   int   //
	start   time.Time
	retryAt time.Time
	reused  bool // the socket carried a response before this request
	retried bool // this request was already sent again on a new socket
	wrote   int  // request bytes written
	n       int  // response bytes in buf
	got     int  // response bytes read, all told
	left    int64
	resp    response
	buf     []byte
}

// eventLoop drives some of the load's connections from one OS thread.
type eventLoop struct {
	g       *generator
	sa      sockaddr // the target, this loop's copy
	epfd    int
	clients []*client
	events  []syscall.EpollEvent
	active  int           // clients not done
	quiet   bool          // wait in epoll with the P held (see wait)
	poll    time.Duration // busy-poll this long before waiting (see wait)
	napOff  int           // waits left without a nap, after one that found nothing (see wait)
	napMiss int           // naps in a row that found nothing
	scratch []byte
	res     loadResult
}

func newEventLoop(g *generator, n int, quiet bool, poll time.Duration) (*eventLoop, error) {
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("epoll: %w", err)
	}
	l := &eventLoop{g: g, sa: g.sa, epfd: epfd, events: make([]syscall.EpollEvent, 256), scratch: make([]byte, 16<<10), quiet: quiet, poll: poll}
	l.res.statuses = map[int]int64{}
	for i := 0; i < n; i++ {
		l.clients = append(l.clients, &client{idx: i, fd: -1, buf: make([]byte, 4096)})
	}
	return l, nil
}

func (l *eventLoop) close() {
	for _, c := range l.clients {
		switch c.state {
		case stConnecting, stWriting, stReading:
			l.res.inFlight++
		}
		l.closeSocket(c)
	}
	syscall.Close(l.epfd)
}

// sweepPeriod is how often timeouts and back-offs are looked at, and the
// longest the loop waits for events before it looks at the stop flag.
const sweepPeriod = 5 * time.Millisecond

// run starts every connection's first request and serves events until the
// load stops or every connection is done.
func (l *eventLoop) run(start time.Time) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer l.close()
	if l.napping() {
		// A nap's timer to the nanosecond: the default slack of 50 us
		// would more than double it. The thread's own setting, restored
		// before it goes back to the runtime.
		if slack, err := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0); err == nil {
			_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0)
			defer unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(slack), 0, 0, 0)
		}
	}
	l.active = len(l.clients)
	for _, c := range l.clients {
		l.next(c, start)
	}
	timeout := l.g.cfg.timeout
	lastSweep := start
	for l.active > 0 && !l.g.stop.Load() {
		n, err := l.wait(int(sweepPeriod / time.Millisecond))
		if err != nil && err != syscall.EINTR {
			l.count(errReset, fmt.Errorf("epoll_wait: %w", err)) // cannot happen with a good descriptor
			return
		}
		for _, ev := range l.events[:max(n, 0)] {
			c := l.clients[ev.Fd]
			if ev.Pad != c.gen || c.fd < 0 {
				continue // an event of a socket closed since
			}
			// Each event its own time: a response's latency must not
			// include the handling of the events before it in the batch.
			l.handle(c, ev.Events, time.Now())
		}
		now := time.Now()
		if now.Sub(lastSweep) >= sweepPeriod {
			lastSweep = now
			if l.quiet || l.poll > 0 {
				// A loop that keeps its P while events keep coming lets
				// the process's other goroutines (the load's timer) run.
				runtime.Gosched()
			}
			for _, c := range l.clients {
				switch c.state {
				case stConnecting, stWriting, stReading:
					if now.Sub(c.start) > timeout {
						l.fail(c, errTimeout, fmt.Errorf("no whole response within %v", timeout), now)
					}
				case stDraining:
					if now.Sub(c.start) > timeout { // the response counted; the server keeps the socket
						l.closeSocket(c)
						l.next(c, now)
					}
				case stBackoff:
					if !now.Before(c.retryAt) {
						l.next(c, now)
					}
				}
			}
		}
	}
}

// wait waits at most msec for events. A polling loop first looks for
// events without sleeping, again and again, for up to l.poll (as
// sockperf's busy-poll); then, or when nothing came, it sleeps in epoll.
// On loopback the server's CPU wakes a client asleep in epoll_wait on
// every response it sends, and where the client's CPU is idle that is an
// inter-processor interrupt: on the development VM the gateway spent 11 %
// more CPU per request (17.1 against 15.4 us) and served 10 % fewer
// requests than for a client that is awake when its answer comes
// (bench/http-wakeups.sh, docs/gateway.md). A client
// on another machine costs the server no such wake-up, so a polling
// client, on a CPU of its own, measures the server rather than the
// server's waking of its client.
//
// A quiet loop waits with a raw system call, as wrk's thread does: the
// goroutine keeps its P while the thread sleeps in epoll. Through
// syscall.EpollWait, each wait longer than 20 us with one P (a generator
// pinned to one CPU) made sysmon take the P and wake a thread to look for
// work: with one connection, on every request. A quiet loop gives the
// process's other goroutines a turn after each empty wait and each
// signal, at least every sweepPeriod.
func (l *eventLoop) wait(msec int) (int, error) {
	if l.napping() {
		if n, err, ok := l.nap(); ok {
			return n, err
		}
	}
	if l.poll > 0 {
		until := time.Now().Add(l.poll)
		for {
			n, err := l.epollWait(0)
			if n > 0 || (err != nil && err != syscall.EINTR) {
				return n, err
			}
			if !time.Now().Before(until) {
				break
			}
		}
	}
	l.res.waits++
	if !l.quiet {
		return syscall.EpollWait(l.epfd, l.events, msec)
	}
	n, err := l.epollWait(msec)
	if err != nil || n == 0 {
		runtime.Gosched()
	}
	return n, err
}

// napLength is how long a loop naps before it sleeps in epoll (see nap);
// napMinClients the fewest connections a loop naps with: the gateway
// under load answers one in some 15 to 50 us, so that 4 in flight keep it
// busy through a nap.
const (
	napLength     = 30 * time.Microsecond
	napMinClients = 4
)

// napping says whether the loop naps before it sleeps in epoll: a quiet
// loop that does not busy-poll, with enough connections (see nap).
func (l *eventLoop) napping() bool {
	return l.quiet && l.poll == 0 && len(l.clients) >= napMinClients
}

// nap, where nothing is ready, sleeps napLength on a timer of the loop's
// own CPU and looks again, before the loop sleeps in epoll. Asleep in
// epoll, the loop is woken by the server's CPU with every answer it sends
// (an inter-processor interrupt, dear in a VM: see wait), about every
// third request with 50 connections; asleep on a timer, it is in no
// socket's wait queue, the server's answers wake nobody, and it finds
// several at once when the timer wakes it. On the 2-vCPU VM under load
// (bench/http-vs-wrk.sh, docs/gateway.md) that took the loop's waits from
// 0.33 to 0.11 a request and its CPU time per request from 1.08 to 0.94
// times wrk's, where polling cost 1.36 times. A response's latency then
// includes up to the nap where a sleeping loop's includes its wake-up
// (some 35 us for an idle vCPU). A nap that found nothing (an idle or slow
// server) turns napping off for the next waits, twice as many after each
// such nap in a row (up to 64), so that a loop whose answers come seldom
// sleeps in epoll as before. ok says the nap's events are the wait's.
func (l *eventLoop) nap() (n int, err error, ok bool) {
	if l.napOff > 0 {
		l.napOff--
		return 0, nil, false
	}
	if n, err := l.epollWait(0); n > 0 || (err != nil && err != syscall.EINTR) {
		return n, err, true
	}
	ts := unix.NsecToTimespec(int64(napLength))
	_, _ = raw(unix.SYS_NANOSLEEP, uintptr(unsafe.Pointer(&ts)), 0, 0, 0, 0, 0)
	l.res.naps++
	if n, err := l.epollWait(0); n > 0 || (err != nil && err != syscall.EINTR) {
		l.napMiss = 0
		return n, err, true
	}
	l.napMiss = min(l.napMiss+1, 6)
	l.napOff = 1 << l.napMiss
	return 0, nil, false
}

// epollWait is epoll_pwait as a raw system call: with msec 0 it never
// sleeps; otherwise the thread sleeps with the goroutine's P held.
func (l *eventLoop) epollWait(msec int) (int, error) {
	n, err := raw(unix.SYS_EPOLL_PWAIT, uintptr(l.epfd), uintptr(unsafe.Pointer(&l.events[0])),
		uintptr(len(l.events)), uintptr(msec), 0, 0)
	return int(n), err
}

// next starts the client's next request at now, unless the load is over.
func (l *eventLoop) next(c *client, now time.Time) {
	g := l.g
	if g.stop.Load() || (g.cfg.requests > 0 && g.issued.Add(1) > g.cfg.requests) {
		c.state = stDone
		l.closeSocket(c)
		l.active--
		return
	}
	c.start, c.retried = now, false
	l.send(c, now)
}

// send sends the current request, on the open socket or a new one.
func (l *eventLoop) send(c *client, now time.Time) {
	c.wrote, c.n, c.got, c.left, c.resp = 0, 0, 0, 0, response{}
	if c.fd < 0 {
		l.connect(c, now)
		return
	}
	l.write(c, now)
}

// connect opens a socket and starts the TCP handshake; the request goes
// when the socket becomes writable.
func (l *eventLoop) connect(c *client, now time.Time) {
	fd, err := nbSocket(l.sa.family)
	if err != nil {
		l.fail(c, errConnect, fmt.Errorf("socket: %w", err), now)
		return
	}
	_ = nbSetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1)
	c.fd, c.reused = fd, false
	c.gen++
	if err := nbConnect(fd, l.sa); err != nil && err != syscall.EINPROGRESS {
		l.fail(c, errConnect, fmt.Errorf("connect: %w", err), now)
		return
	}
	// Registered after connect: an unconnected socket reports a hang-up.
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLOUT | syscall.EPOLLRDHUP | epollET, Fd: int32(c.idx), Pad: c.gen}
	if err := nbEpollCtl(l.epfd, syscall.EPOLL_CTL_ADD, fd, &ev); err != nil {
		l.fail(c, errConnect, fmt.Errorf("epoll_ctl: %w", err), now)
		return
	}
	c.state = stConnecting
}

// The nb calls below make the event loop's system calls raw: none of them
// waits (the sockets are non-blocking; connect returns EINPROGRESS, close
// of a socket without SO_LINGER does not wait for the peer), so the
// scheduler need not know of them, as it must of a call that may block.
// Through syscall.Read, Write, Connect and the rest every call entered and
// left the scheduler's system-call state, and sysmon, finding the one P of
// a pinned generator in a system call on its 20 us rounds, took it and
// woke a thread to look for work: with keep-alive, 1,500 futex calls and
// 13,000 sysmon sleeps in 3 s against 13,700 requests (strace -f -c); a
// new connection per request adds socket, setsockopt, connect, epoll_ctl,
// getsockopt and close, and left 952 futex calls and 6,642 sysmon sleeps in
// 3 s against 9,900 requests while only read and write were raw. wrk's and
// ab's threads make the same calls and nothing else wakes.

// raw makes a system call that does not wait, as a raw one (see above);
// its result is 0 when it fails.
func raw(trap, a1, a2, a3, a4, a5, a6 uintptr) (uintptr, error) {
	r, _, e := syscall.RawSyscall6(trap, a1, a2, a3, a4, a5, a6)
	if e != 0 {
		return 0, e
	}
	return r, nil
}

func bufPtr(p []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(p))) }

func nbRead(fd int, p []byte) (int, error) {
	n, err := raw(syscall.SYS_READ, uintptr(fd), bufPtr(p), uintptr(len(p)), 0, 0, 0)
	return int(n), err
}

func nbWrite(fd int, p []byte) (int, error) {
	n, err := raw(syscall.SYS_WRITE, uintptr(fd), bufPtr(p), uintptr(len(p)), 0, 0, 0)
	return int(n), err
}

// nbSocket opens a non-blocking, close-on-exec TCP socket.
func nbSocket(family int) (int, error) {
	fd, err := raw(unix.SYS_SOCKET, uintptr(family), syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0, 0, 0, 0)
	if err != nil {
		return -1, err
	}
	return int(fd), nil
}

func nbSetsockoptInt(fd, level, opt, value int) error {
	v := int32(value)
	_, err := raw(unix.SYS_SETSOCKOPT, uintptr(fd), uintptr(level), uintptr(opt), uintptr(unsafe.Pointer(&v)), 4, 0)
	return err
}

func nbGetsockoptInt(fd, level, opt int) (int, error) {
	var v int32
	size := uint32(4)
	_, err := raw(unix.SYS_GETSOCKOPT, uintptr(fd), uintptr(level), uintptr(opt), uintptr(unsafe.Pointer(&v)), uintptr(unsafe.Pointer(&size)), 0)
	return int(v), err
}

// nbConnect starts the handshake of a non-blocking socket: EINPROGRESS
// says it is under way.
func nbConnect(fd int, sa sockaddr) error {
	_, err := raw(unix.SYS_CONNECT, uintptr(fd), bufPtr(sa.raw), uintptr(len(sa.raw)), 0, 0, 0)
	return err
}

func nbEpollCtl(epfd, op, fd int, ev *syscall.EpollEvent) error {
	_, err := raw(syscall.SYS_EPOLL_CTL, uintptr(epfd), uintptr(op), uintptr(fd), uintptr(unsafe.Pointer(ev)), 0, 0)
	return err
}

func nbClose(fd int) error {
	_, err := raw(syscall.SYS_CLOSE, uintptr(fd), 0, 0, 0, 0, 0)
	return err
}

// epollET is EPOLLET as the unsigned mask EpollEvent.Events is.
const epollET = 1 << 31

// handle acts on the events of the client's socket.
func (l *eventLoop) handle(c *client, events uint32, now time.Time) {
	switch c.state {
	case stConnecting:
		if events&(syscall.EPOLLOUT|syscall.EPOLLERR|syscall.EPOLLHUP) == 0 {
			return
		}
		soErr, err := nbGetsockoptInt(c.fd, syscall.SOL_SOCKET, syscall.SO_ERROR)
		if err == nil && soErr != 0 {
			err = syscall.Errno(soErr)
		}
		if err != nil {
			l.fail(c, errConnect, fmt.Errorf("connect: %w", err), now)
			return
		}
		l.res.conns++
		l.write(c, now)
	case stWriting:
		l.write(c, now)
	case stReading, stDraining:
		// Only what can be read: an edge of free send space is no news.
		if events&(syscall.EPOLLIN|syscall.EPOLLRDHUP|syscall.EPOLLERR|syscall.EPOLLHUP) == 0 {
			return
		}
		if c.state == stReading {
			l.read(c, now)
		} else {
			l.drain(c, now)
		}
	}
}

// write writes the rest of the request.
func (l *eventLoop) write(c *client, now time.Time) {
	req := l.g.request
	for c.wrote < len(req) {
		k, err := nbWrite(c.fd, req[c.wrote:])
		if err == syscall.EAGAIN {
			c.state = stWriting
			return
		}
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			l.broken(c, fmt.Errorf("sending the request: %w", err), now)
			return
		}
		c.wrote += k
	}
	c.state = stReading // the answer comes with the next edge
}

// read reads what there is of the response and completes it when whole.
func (l *eventLoop) read(c *client, now time.Time) {
	for {
		var buf []byte
		if c.resp.headerLen == 0 {
			if c.n == len(c.buf) {
				if len(c.buf) >= 64<<10 {
					l.fail(c, errParse, errors.New("a response header of more than 64 KiB"), now)
					return
				}
				c.buf = append(c.buf, make([]byte, len(c.buf))...)
			}
			buf = c.buf[c.n:]
		} else {
			buf = l.scratch // the body: only counted
		}
		k, err := nbRead(c.fd, buf)
		switch {
		case err == syscall.EAGAIN:
			return
		case err == syscall.EINTR:
			continue
		case err != nil:
			l.broken(c, fmt.Errorf("reading the response: %w", err), now)
			return
		case k == 0: // the server closed
			if c.resp.untilClose {
				c.resp.bodyLen = int64(c.got - c.resp.headerLen)
				l.closeSocket(c)
				l.complete(c, now)
				return
			}
			if c.got == 0 {
				l.broken(c, errors.New("the server closed the connection without answering"), now)
			} else {
				l.broken(c, fmt.Errorf("the server closed the connection after %d bytes of the response", c.got), now)
			}
			return
		}
		c.got += k
		if c.resp.headerLen == 0 {
			c.n += k
			if err := c.resp.parse(c.buf[:c.n]); err != nil {
				l.fail(c, errParse, err, now)
				return
			}
			if c.resp.headerLen == 0 {
				continue
			}
			c.left = int64(c.resp.headerLen) + c.resp.bodyLen - int64(c.n)
		} else {
			c.left -= int64(k)
		}
		if !c.resp.untilClose && c.left <= 0 {
			l.complete(c, now)
			return
		}
	}
}

// complete counts a whole response and goes on.
func (l *eventLoop) complete(c *client, now time.Time) {
	if l.g.stop.Load() {
		return // after the end: not counted
	}
	if s := c.resp.status; s >= 200 && s <= 299 {
		l.res.latency.Record(now.Sub(c.start))
		l.res.ok++
		l.res.bodyLen = c.resp.bodyLen
	} else {
		l.res.statuses[s]++
		l.count(errStatus, fmt.Errorf("status %d", s))
	}
	c.reused = true
	switch {
	case c.fd < 0: // the body ended with the connection
		l.next(c, now)
	case c.resp.close || !l.g.cfg.keepAlive:
		// Wait for the server to close, so that the connection's
		// TIME_WAIT stays with the server (as with ab) and this host's
		// ports are not used up.
		c.state = stDraining
		l.drain(c, now)
	default:
		l.next(c, now)
	}
}

// drain reads until the server closes, then goes on.
func (l *eventLoop) drain(c *client, now time.Time) {
	for {
		k, err := nbRead(c.fd, l.scratch)
		if err == syscall.EAGAIN {
			return
		}
		if err == syscall.EINTR {
			continue
		}
		if err != nil || k == 0 {
			l.closeSocket(c)
			l.next(c, now)
			return
		}
	}
}

// broken handles a socket that failed mid-request: a keep-alive socket
// the server closed before answering (as servers close idle connections)
// is replaced once and the request sent again, as browsers and Go's client
// do; anything else fails the request.
func (l *eventLoop) broken(c *client, err error, now time.Time) {
	if c.reused && c.got == 0 && !c.retried && !l.g.stop.Load() {
		c.retried = true
		l.closeSocket(c)
		l.send(c, now)
		return
	}
	l.fail(c, errReset, err, now)
}

// fail counts a failed request and goes on, after a pause when the
// connection could not be made.
func (l *eventLoop) fail(c *client, kind int, err error, now time.Time) {
	l.closeSocket(c)
	if l.g.stop.Load() {
		return // at the end: not counted
	}
	l.count(kind, err)
	if kind == errConnect {
		c.state, c.retryAt = stBackoff, now.Add(connectBackoff)
		return
	}
	l.next(c, now)
}

func (l *eventLoop) count(kind int, err error) {
	l.res.errs[kind]++
	if l.res.firstErr[kind] == "" {
		l.res.firstErr[kind] = err.Error()
	}
}

// closeSocket closes the client's socket (which also takes it out of epoll).
func (l *eventLoop) closeSocket(c *client) {
	if c.fd >= 0 {
		nbClose(c.fd)
		c.fd = -1
	}
	if c.state != stDone {
		c.state = stIdle
	}
}
