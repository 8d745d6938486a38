package docker

import (
	"context"
	"fmt"
	"net"
	"strconv"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
)

// OwnNetwork implements Networked: on the bridge network a container has a
// network stack of its own behind NAT; with host networking it has the host's.
func (d *Env) OwnNetwork() bool { return d.networkMode == "bridge" }

// NATAddress implements Networked: the host's address on the bridge (the
// containers' gateway, 172.17.0.1 by default). From the host, connecting to
// it goes through the DNAT rule Docker adds to the nat table's OUTPUT chain,
// the kernel path; connecting to 127.0.0.1 would instead reach docker-proxy,
// the userland proxy, when the daemon runs it (userland-proxy, the default).
func (d *Env) NATAddress(ctx context.Context) (string, error) {
	if d.clientErr != nil {
		return "", d.clientErr
	}
	n, err := d.client.NetworkInspect(ctx, d.networkMode)
	if err != nil {
		return "", fmt.Errorf("%s: %w", d.name, err)
	}
	if gw := n.Gateway(); gw != "" {
		return gw, nil
	}
	name := n.BridgeName()
	iface, err := net.InterfaceByName(name)
	if err != nil {
		return "", fmt.Errorf("%s: the bridge interface %q of network %s is not on this host (is DOCKER_HOST a remote daemon? network workloads need the daemon on this machine): %w",
			d.name, name, d.networkMode, err)
	}
	addrs, err := iface.Addrs()
	if err != nil {
		return "", fmt.Errorf("%s: addresses of %s: %w", d.name, name, err)
	}
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok && ipn.IP.To4() != nil {
			return ipn.IP.String(), nil
		}
	}
	return "", fmt.Errorf("%s: the bridge interface %s has no IPv4 address", d.name, name)
}

// publish turns the ports a server listens on into Docker's exposed ports
// and port bindings, each published on the same port number of the host.
// With host networking there is nothing to publish.
func (d *Env) publish(ports []env.Port) (map[string]struct{}, map[string][]docker.PortBinding) {
	if !d.OwnNetwork() || len(ports) == 0 {
		return nil, nil
	}
	exposed := map[string]struct{}{}
	bindings := map[string][]docker.PortBinding{}
	for _, p := range ports {
		key := strconv.Itoa(p.Port) + "/" + p.Proto
		exposed[key] = struct{}{}
		bindings[key] = append(bindings[key], docker.PortBinding{HostIP: p.HostIP, HostPort: strconv.Itoa(p.Port)})
	}
	return exposed, bindings
}
