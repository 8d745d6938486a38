package env

import (
	"context"
	"fmt"
	"net"
	"strconv"
)

// Port is a port a worker's server listens on: Port inside the worker's
// network, published on the host at HostIP:Port when the environment has a
// network of its own.
type Port struct {
	Proto  string // tcp or udp
	Port   int
	HostIP string // the host address to publish on; "" for all of them
}

// String renders the port as docker ps shows a published one.
func (p Port) String() string {
	return fmt.Sprintf("%s->%d/%s", net.JoinHostPort(p.HostIP, strconv.Itoa(p.Port)), p.Port, p.Proto)
}

// Networked is implemented by environments that say how their workers are
// reached over the network. An environment that does not implement it runs
// workers in the host's own network (native).
type Networked interface {
	// OwnNetwork tells whether workers have a network stack of their own
	// (docker-bridge), reached from the host only through published ports.
	OwnNetwork() bool
	// NATAddress is a host address at which published ports are reached
	// through the kernel's NAT (iptables DNAT), as a client on another
	// machine reaches them, and not through a userland proxy.
	NATAddress(ctx context.Context) (string, error)
}
