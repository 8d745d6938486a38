// Package sockfd hands a Go connection's socket to code that uses plain
// blocking system calls, as C benchmark tools do, instead of Go's network
// poller: Socket, used by net.rr, net.tcp and mqtt.pub's one-at-a-time
// publishers.
package sockfd

import (
	"fmt"
	"syscall"
)

// DupBlocking returns a duplicate of conn's descriptor with the socket put
// in blocking mode. The mode belongs to the socket, not the descriptor: conn
// must not be read or written while it is blocking. The caller closes the
// duplicate.
func DupBlocking(conn syscall.Conn) (int, error) {
	raw, err := conn.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	var dupErr error
	if err := raw.Control(func(f uintptr) { fd, dupErr = syscall.Dup(int(f)) }); err != nil {
		return -1, err
	}
	if dupErr != nil {
		return -1, fmt.Errorf("duplicating the socket: %w", dupErr)
	}
	if err := syscall.SetNonblock(fd, false); err != nil {
		syscall.Close(fd)
		return -1, fmt.Errorf("making the socket blocking: %w", err)
	}
	return fd, nil
}
