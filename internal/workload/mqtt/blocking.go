package mqtt

import (
	"errors"
	"fmt"
	"io"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/sockfd"
)

// blockingSocket is a connection's socket used with plain blocking system
// calls from one locked thread, as a C client waits, instead of through
// Go's network poller: a publisher that waits for each acknowledgement
// then makes two system calls per message (write, read) and is woken by
// the kernel directly.
type blockingSocket struct{ fd int }

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

func (b *blockingSocket) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(b.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return 0, errAckTimeout
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (b *blockingSocket) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		n, err := syscall.Write(b.fd, p[done:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return done, err
		}
		done += n
	}
	return done, nil
}

// setReadTimeout bounds every read (SO_RCVTIMEO).
func (b *blockingSocket) setReadTimeout(d time.Duration) error {
	tv := syscall.NsecToTimeval(d.Nanoseconds())
	return syscall.SetsockoptTimeval(b.fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
}

// interrupt wakes a read blocked in the publisher's thread.
func (b *blockingSocket) interrupt() { _ = syscall.Shutdown(b.fd, syscall.SHUT_RDWR) }

// restore gives the socket back to Go's poller (non-blocking, no receive
// timeout) and closes the duplicate.
func (b *blockingSocket) restore() error {
	err := errors.Join(b.setReadTimeout(0), syscall.SetNonblock(b.fd, true))
	return errors.Join(err, syscall.Close(b.fd))
}
