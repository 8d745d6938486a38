package wire

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// What boxtax's networks (a wire, the LXC environments' bridge) need to know
// of the host's: the addresses in use, and whether a failed delete found
// nothing to delete.

// HostIPv4 lists the IPv4 addresses of the host's interfaces, each with its
// interface's prefix length, for choosing a subnet no interface uses.
func HostIPv4() ([]netip.Prefix, error) {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil, fmt.Errorf("listing the host's addresses: %w", err)
	}
	var out []netip.Prefix
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(ipn.IP.To4()); ok {
				ones, _ := ipn.Mask.Size()
				out = append(out, netip.PrefixFrom(ip, ones))
			}
		}
	}
	return out, nil
}

// Gone tells a failure of ip to delete something (a link, a namespace)
// that does not exist: nothing is left to remove.
func Gone(err error) bool {
	s := err.Error()
	return strings.Contains(s, "Cannot find device") || strings.Contains(s, "No such file") || strings.Contains(s, "does not exist")
}
