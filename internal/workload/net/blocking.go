package net

import (
	"errors"
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"github.com/boxtax/boxtax/internal/sockfd"
)

// blockingSocket is a socket used with plain blocking system calls, as
// netperf uses its sockets, instead of through Go's network poller. A
// request-response loop then waits in the kernel exactly as a C program
// does: the poller, whose threads spin a while before they sleep, would make
// round trips shorter than netperf's on idle CPUs, and bimodal.
//
// Use it from one goroutine locked to its OS thread (runtime.LockOSThread).
type blockingSocket struct{ fd int }

// blocking takes over conn's socket: a duplicate of its descriptor, put in
// blocking mode. The mode belongs to the socket, so conn must not be read
// or written any more; close both when done.
func blocking(conn syscall.Conn) (*blockingSocket, error) {
	fd, err := sockfd.DupBlocking(conn)
	if err != nil {
		return nil, err
	}
	return &blockingSocket{fd: fd}, nil
}

// errTimeout is what read returns when the receive timeout passed.
var errTimeout = errors.New("receive timed out")

func (b *blockingSocket) read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(b.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return 0, errTimeout
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, errEOF
		}
		return n, nil
	}
}

// readFull reads exactly len(p) bytes of a stream.
func (b *blockingSocket) readFull(p []byte) error {
	for done := 0; done < len(p); {
		n, err := b.read(p[done:])
		if err != nil {
			if errors.Is(err, errEOF) && done > 0 {
				return errors.New("the connection ended inside a message")
			}
			return err
		}
		done += n
	}
	return nil
}

func (b *blockingSocket) write(p []byte) error {
	for done := 0; done < len(p); {
		n, err := syscall.Write(b.fd, p[done:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		done += n
	}
	return nil
}

// peer is a datagram's sender as the kernel gave it, kept raw so that the
// answer goes back without converting it: syscall.Recvfrom allocates a
// Sockaddr per datagram, and a collection in the middle of a round trip is
// what a C echo server never pays.
type peer struct {
	sa  syscall.RawSockaddrAny
	len uint32
}

// recvFrom reads one datagram into p (not empty) and its sender into from.
func (b *blockingSocket) recvFrom(p []byte, from *peer) (int, error) {
	for {
		from.len = syscall.SizeofSockaddrAny
		n, _, e := syscall.Syscall6(syscall.SYS_RECVFROM, uintptr(b.fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)), 0,
			uintptr(unsafe.Pointer(&from.sa)), uintptr(unsafe.Pointer(&from.len)))
		switch e {
		case 0:
			return int(n), nil
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return 0, errTimeout
		}
		return 0, e
	}
}

// sendTo sends p (not empty) to a sender recvFrom read.
func (b *blockingSocket) sendTo(p []byte, to *peer) error {
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_SENDTO, uintptr(b.fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)), 0,
			uintptr(unsafe.Pointer(&to.sa)), uintptr(to.len))
		if e == 0 {
			return nil
		}
		if e != syscall.EINTR {
			return e
		}
	}
}

// setReadTimeout bounds every read (SO_RCVTIMEO); 0 waits for ever.
func (b *blockingSocket) setReadTimeout(d time.Duration) error {
	tv := syscall.NsecToTimeval(d.Nanoseconds())
	return syscall.SetsockoptTimeval(b.fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
}

// interrupt wakes a read blocked in another thread: shutdown ends a
// stream's reads and a connected datagram socket's alike.
func (b *blockingSocket) interrupt() { _ = syscall.Shutdown(b.fd, syscall.SHUT_RDWR) }

func (b *blockingSocket) close() { syscall.Close(b.fd) }

// errEOF is the end of a stream.
var errEOF = errors.New("EOF")

// onLockedThread runs fn on a goroutine locked to an OS thread of its own,
// which ends with it (the thread's scheduling state goes with it).
func onLockedThread(fn func()) {
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer close(done)
		fn()
	}()
	<-done
}
