package mqtt

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"github.com/boxtax/boxtax/internal/sockfd"
)

// blockingSocket is a connection's socket used with plain blocking system
// calls from one locked thread, as a C client waits, instead of through
// Go's network poller: a publisher that waits for each acknowledgement
// then makes two system calls per message (write, read) and is woken by
// the kernel directly.
//
// A quiet socket's calls are raw system calls the Go scheduler does not
// see, each bounded by quietSlice, as net.rr's (see quietFor and
// docs/design/010-probe-cost.md): with one P, a wait through
// syscall.Syscall longer than 20 us made sysmon take the P and wake a
// thread to look for work, on every message.
type blockingSocket struct {
	fd    int
	raw   bool          // quiet: system calls the scheduler is not told about
	wait  time.Duration // a quiet socket's whole read timeout
	waitd time.Duration // how long the read under way has waited
}

// quietSlice is the longest a quiet socket's call blocks (SO_RCVTIMEO and
// SO_SNDTIMEO): at least this often the goroutine, which holds its P while
// it waits, lets the process's other goroutines run.
const quietSlice = 20 * time.Millisecond

// errAckTimeout is what a read returns when SO_RCVTIMEO passed.
var errAckTimeout = fmt.Errorf("no acknowledgement within %v", ackTimeout)

// blockingOf duplicates conn's descriptor and puts the socket in blocking
// mode; restore puts it back before conn is used again.
func blockingOf(conn syscall.Conn) (*blockingSocket, error) {
	fd, err := sockfd.DupBlocking(conn)
	if err != nil {
		return nil, err
	}
	return &blockingSocket{fd: fd}, nil
}

// quiet makes the socket's calls raw system calls; see blockingSocket.
func (b *blockingSocket) quiet() error {
	b.raw = true
	tv := syscall.NsecToTimeval(quietSlice.Nanoseconds())
	if err := syscall.SetsockoptTimeval(b.fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv); err != nil {
		return err
	}
	return b.setReadTimeout(b.wait)
}

// call makes a read or write system call, raw on a quiet socket.
func (b *blockingSocket) call(trap uintptr, p []byte) (int, syscall.Errno) {
	ptr := uintptr(unsafe.Pointer(unsafe.SliceData(p)))
	if b.raw {
		n, _, e := syscall.RawSyscall(trap, uintptr(b.fd), ptr, uintptr(len(p)))
		return int(n), e
	}
	n, _, e := syscall.Syscall(trap, uintptr(b.fd), ptr, uintptr(len(p)))
	return int(n), e
}

// again says whether a call that failed with e is made again: after a
// signal, and on a quiet socket after each slice until the read's own
// timeout; the goroutine gives the others a turn first.
func (b *blockingSocket) again(e syscall.Errno, reading bool) bool {
	switch {
	case e == syscall.EINTR:
	case e != syscall.EAGAIN || !b.raw:
		return false
	case reading && b.wait > 0 && b.waitd+quietSlice >= b.wait:
		return false
	default:
		b.waitd += quietSlice
	}
	if b.raw {
		runtime.Gosched()
	}
	return true
}

func (b *blockingSocket) Read(p []byte) (int, error) {
	b.waitd = 0
	for {
		n, e := b.call(syscall.SYS_READ, p)
		switch {
		case e != 0 && b.again(e, true):
			continue
		case e == syscall.EAGAIN:
			return 0, errAckTimeout
		case e != 0:
			return 0, e
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (b *blockingSocket) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		n, e := b.call(syscall.SYS_WRITE, p[done:])
		if e != 0 {
			if b.again(e, false) {
				continue
			}
			return done, e
		}
		done += n
	}
	return done, nil
}

// setReadTimeout bounds every read (SO_RCVTIMEO); a quiet socket's kernel
// timeout stays at most quietSlice and Read counts the slices.
func (b *blockingSocket) setReadTimeout(d time.Duration) error {
	b.wait = d
	if b.raw && (d == 0 || d > quietSlice) {
		d = quietSlice
	}
	tv := syscall.NsecToTimeval(d.Nanoseconds())
	return syscall.SetsockoptTimeval(b.fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
}

// interrupt wakes a read blocked in the publisher's thread.
func (b *blockingSocket) interrupt() { _ = syscall.Shutdown(b.fd, syscall.SHUT_RDWR) }

// restore gives the socket back to Go's poller (non-blocking, no receive
// timeout) and closes the duplicate.
func (b *blockingSocket) restore() error {
	b.raw = false
	var zero syscall.Timeval
	err := errors.Join(b.setReadTimeout(0), syscall.SetsockoptTimeval(b.fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &zero),
		syscall.SetNonblock(b.fd, true))
	return errors.Join(err, syscall.Close(b.fd))
}
