package docker

import (
	"context"
	"fmt"
	"net/url"
)

// Network is what NetworkInspect reports about a network.
type Network struct {
	Name    string            `json:"Name"`
	ID      string            `json:"Id"`
	Driver  string            `json:"Driver"` // bridge, host, null, ...
	IPAM    NetworkIPAM       `json:"IPAM"`
	Options map[string]string `json:"Options"` // e.g. com.docker.network.bridge.name: docker0
}

// NetworkIPAM is a network's address configuration.
type NetworkIPAM struct {
	Config []NetworkIPAMConfig `json:"Config"`
}

// NetworkIPAMConfig is one subnet of a network.
type NetworkIPAMConfig struct {
	Subnet  string `json:"Subnet"`  // e.g. 172.17.0.0/16
	Gateway string `json:"Gateway"` // the host's address on it, e.g. 172.17.0.1
}

// NetworkInspect returns a network by name or id, e.g. "bridge".
func (c *Client) NetworkInspect(ctx context.Context, name string) (Network, error) {
	var n Network
	if err := c.getJSON(ctx, "/networks/"+url.PathEscape(name), nil, &n); err != nil {
		return Network{}, fmt.Errorf("inspecting network %s: %w", name, err)
	}
	return n, nil
}

// Gateway is the first gateway the network's configuration names: the
// host's own address on it. Docker's default bridge names none; its
// address is then that of the bridge interface (BridgeName).
func (n Network) Gateway() string {
	for _, c := range n.IPAM.Config {
		if c.Gateway != "" {
			return c.Gateway
		}
	}
	return ""
}

// BridgeName is the host interface of a bridge network, e.g. docker0.
func (n Network) BridgeName() string { return n.Options["com.docker.network.bridge.name"] }
