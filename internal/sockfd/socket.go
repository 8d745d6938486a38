package sockfd

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Socket is a socket used with plain blocking system calls, as netperf
// and C MQTT clients use theirs, instead of through Go's network poller. A
// request-response loop then waits in the kernel exactly as a C program
// does: the poller, whose threads spin a while before they sleep, would make
// round trips shorter than netperf's on idle CPUs, and bimodal.
//
// A quiet socket goes further (see quiet and docs/design/010-probe-cost.md):
// its calls are made without telling Go's scheduler, so that the thread
// sleeps in recv with its P as a C program sleeps, instead of the scheduler
// taking the P away and waking threads to look for work on every wait.
//
// Use it from one goroutine, not locked to its thread: sysmon preempts a
// goroutine that has run 10 ms, and a locked one's yield hands its P to
// another thread and back (two threads woken, where an unlocked goroutine
// goes through the scheduler on its own thread). A quiet call holds its
// thread anyway.
type Socket struct {
	// TimeoutErr is what a read returns when its timeout passed; nil for
	// ErrTimeout.
	TimeoutErr error

	fd   int
	raw  bool          // quiet: system calls the scheduler is not told about
	wait time.Duration // a quiet socket's whole read timeout; 0 waits for ever
}

// QuietSlice is the longest a quiet socket's call blocks (SO_RCVTIMEO and
// SO_SNDTIMEO): a blocked quiet call holds its P, so at least this often the
// goroutine gives the other goroutines of its process a turn.
const QuietSlice = 20 * time.Millisecond

// blocking takes over conn's socket: a duplicate of its descriptor, put in
// blocking mode. The mode belongs to the socket, so conn must not be read
// or written any more; close both when done.
func Blocking(conn syscall.Conn) (*Socket, error) {
	fd, err := DupBlocking(conn)
	if err != nil {
		return nil, err
	}
	return &Socket{fd: fd}, nil
}

// quiet makes the socket's calls raw system calls (syscall.RawSyscall):
// the goroutine keeps its P while the thread sleeps in the kernel, and
// sysmon, seeing a P that runs, has nothing to retake. Through
// syscall.Syscall every wait longer than 20 us on a process with one P
// (GOMAXPROCS=1, a process pinned to one CPU) made sysmon take the P and
// start a thread to look for work: three threads woke per round trip on the
// measured CPU where C's recv wakes one. Only for calls that return within
// a round trip: every call is bounded by QuietSlice, and the P, while held,
// runs no other goroutine, so a process with one P must not have two quiet
// sockets waiting on each other.
func (b *Socket) Quiet() error {
	b.raw = true
	tv := syscall.NsecToTimeval(QuietSlice.Nanoseconds())
	if err := syscall.SetsockoptTimeval(b.fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv); err != nil {
		return fmt.Errorf("bounding the socket's sends: %w", err)
	}
	return b.SetReadTimeout(b.wait)
}

// IsQuiet says whether Quiet was called.
func (b *Socket) IsQuiet() bool { return b.raw }

// call makes system call trap, raw on a quiet socket.
func (b *Socket) call(trap, a1, a2, a3, a4, a5, a6 uintptr) (uintptr, syscall.Errno) {
	if b.raw {
		r, _, e := syscall.RawSyscall6(trap, a1, a2, a3, a4, a5, a6)
		return r, e
	}
	r, _, e := syscall.Syscall6(trap, a1, a2, a3, a4, a5, a6)
	return r, e
}

// again decides what a call that failed with e does next: true to make it
// again. A quiet socket's calls time out every QuietSlice and are
// interrupted by the scheduler's preemption signal; both are the moments
// the goroutine lets the others of its process run. waited counts the
// slices of one read.
func (b *Socket) again(e syscall.Errno, reading bool, waited *time.Duration) bool {
	switch {
	case e == syscall.EINTR:
		if b.raw {
			runtime.Gosched()
		}
		return true
	case e != syscall.EAGAIN || !b.raw:
		return false
	case reading && b.wait > 0 && *waited+QuietSlice >= b.wait:
		return false // the read's own timeout
	}
	*waited += QuietSlice
	runtime.Gosched()
	return true
}

// ErrTimeout is what a read returns when the receive timeout passed,
// unless the socket's TimeoutErr says otherwise.
var ErrTimeout = errors.New("receive timed out")

// errno turns a failed call's errno into an error.
func (b *Socket) errno(e syscall.Errno) error {
	if e != syscall.EAGAIN {
		return e
	}
	if b.TimeoutErr != nil {
		return b.TimeoutErr
	}
	return ErrTimeout
}

// bufPtr is the address of p's first byte; p may be empty.
func bufPtr(p []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(p))) }

// Read reads what the socket holds into p: io.EOF at a stream's end, the
// read timeout's error when it passed.
func (b *Socket) Read(p []byte) (int, error) {
	var waited time.Duration
	for {
		n, e := b.call(syscall.SYS_READ, uintptr(b.fd), bufPtr(p), uintptr(len(p)), 0, 0, 0)
		if e != 0 {
			if b.again(e, true, &waited) {
				continue
			}
			return 0, b.errno(e)
		}
		if n == 0 && len(p) > 0 {
			return 0, io.EOF
		}
		return int(n), nil
	}
}

// readFull reads exactly len(p) bytes of a stream.
func (b *Socket) ReadFull(p []byte) error {
	for done := 0; done < len(p); {
		n, err := b.Read(p[done:])
		if err != nil {
			if errors.Is(err, io.EOF) && done > 0 {
				return errors.New("the connection ended inside a message")
			}
			return err
		}
		done += n
	}
	return nil
}

// Write writes all of p.
func (b *Socket) Write(p []byte) (int, error) {
	var waited time.Duration
	done := 0
	for done < len(p) {
		n, e := b.call(syscall.SYS_WRITE, uintptr(b.fd), bufPtr(p[done:]), uintptr(len(p)-done), 0, 0, 0)
		if e != 0 {
			if b.again(e, false, &waited) {
				continue
			}
			return done, b.errno(e)
		}
		done += int(n)
	}
	return done, nil
}

// Peer is a datagram's sender as the kernel gave it, kept raw so that the
// answer goes back without converting it: syscall.Recvfrom allocates a
// Sockaddr per datagram, and a collection in the middle of a round trip is
// what a C echo server never pays.
type Peer struct {
	sa  syscall.RawSockaddrAny
	len uint32
}

// recvFrom reads one datagram into p (not empty) and its sender into from.
func (b *Socket) RecvFrom(p []byte, from *Peer) (int, error) {
	var waited time.Duration
	for {
		from.len = syscall.SizeofSockaddrAny
		n, e := b.call(unix.SYS_RECVFROM, uintptr(b.fd), bufPtr(p), uintptr(len(p)), 0,
			uintptr(unsafe.Pointer(&from.sa)), uintptr(unsafe.Pointer(&from.len)))
		if e == 0 {
			return int(n), nil
		}
		if !b.again(e, true, &waited) {
			return 0, b.errno(e)
		}
	}
}

// sendTo sends p (not empty) to a sender recvFrom read.
func (b *Socket) SendTo(p []byte, to *Peer) error {
	var waited time.Duration
	for {
		_, e := b.call(unix.SYS_SENDTO, uintptr(b.fd), bufPtr(p), uintptr(len(p)), 0,
			uintptr(unsafe.Pointer(&to.sa)), uintptr(to.len))
		if e == 0 {
			return nil
		}
		if !b.again(e, false, &waited) {
			return b.errno(e)
		}
	}
}

// setReadTimeout bounds every read (SO_RCVTIMEO); 0 waits for ever. A
// quiet socket's kernel timeout stays at most QuietSlice; read counts the
// slices.
func (b *Socket) SetReadTimeout(d time.Duration) error {
	b.wait = d
	if b.raw && (d == 0 || d > QuietSlice) {
		d = QuietSlice
	}
	tv := syscall.NsecToTimeval(d.Nanoseconds())
	return syscall.SetsockoptTimeval(b.fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
}

// interrupt wakes a read blocked in another thread: shutdown ends a
// stream's reads and a connected datagram socket's alike.
func (b *Socket) Interrupt() { _ = syscall.Shutdown(b.fd, syscall.SHUT_RDWR) }

func (b *Socket) Close() error { return syscall.Close(b.fd) }

// Restore gives the socket back to Go's poller (non-blocking, no
// timeouts) and closes the duplicate, so that conn may be used again.
func (b *Socket) Restore() error {
	b.raw = false
	var zero syscall.Timeval
	err := errors.Join(b.SetReadTimeout(0), syscall.SetsockoptTimeval(b.fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &zero),
		syscall.SetNonblock(b.fd, true))
	return errors.Join(err, syscall.Close(b.fd))
}
