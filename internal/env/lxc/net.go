package lxc

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/netcmd"
	"github.com/boxtax/boxtax/internal/wire"
)

// The LXC network of one boxtax process is what Debian's lxc-net makes
// (lxcbr0, 10.0.3.0/24, NAT), made by boxtax itself and for its own
// containers only: a bridge bxlxc<pid> with the first address of a free
// 10.0.X.0/24 (X from 4 up: lxc-net's 10.0.3.0/24 stays the user's), a
// MASQUERADE rule for the subnet as lxc-net adds, and FORWARD accept rules
// for the bridge (Docker sets the FORWARD policy to DROP). Each container
// gets a veth pair whose host end (bxl<pid>v<n>) joins the bridge and an
// address of the subnet; a server's ports are published as Docker
// publishes them, by DNAT rules in the nat table's PREROUTING and OUTPUT
// chains. Every rule carries the comment boxtax-lxc:<pid>[:<container>],
// so that what a killed controller left is found again. The bridge and its
// rules go when the process closes the environment; `boxtax clean` and the
// next boxtax to make a network remove those of processes that are gone.

// lxcRuleComment starts the comment of every iptables rule boxtax adds for LXC.
const lxcRuleComment = "boxtax-lxc:"

// lxcBridgePrefix starts the name of the bridge of each boxtax process.
const lxcBridgePrefix = "bxlxc"

// lxcNetwork is the bridge of this process and the addresses it gave out.
type lxcNetwork struct {
	mu      sync.Mutex
	pid     int
	bridge  string
	subnet  netip.Prefix // a /24
	gateway netip.Addr   // the bridge's address: .1
	inUse   map[netip.Addr]bool
	next    int // the last host number given out
	up      bool
	staled  bool // stale networks removed once
	// forwardSet tells that this process turned IPv4 forwarding on (it
	// was off), as lxc-net does, so that a client across a wire reaches
	// the containers; remove turns it off again.
	forwardSet bool
}

// ipForward is the host's IPv4 forwarding switch.
const ipForward = "/proc/sys/net/ipv4/ip_forward"

// lxcNet is the process's network, shared by its LXC environments.
var lxcNet = &lxcNetwork{pid: os.Getpid()}

// ensure makes the bridge and its rules unless they exist.
func (n *lxcNetwork) ensure(ctx context.Context) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.up {
		return nil
	}
	if !n.staled {
		n.staled = true
		_, _, _ = removeStaleLXC(ctx)
	}
	subnet, err := freeLXCSubnet(n.pid)
	if err != nil {
		return err
	}
	n.bridge = lxcBridgePrefix + strconv.Itoa(n.pid)
	n.subnet, n.gateway = subnet, subnet.Addr().Next()
	n.inUse, n.next = map[netip.Addr]bool{}, 1
	comment := lxcRuleComment + strconv.Itoa(n.pid)
	steps := [][]string{
		{"ip", "link", "add", "name", n.bridge, "type", "bridge"},
		{"ip", "addr", "add", netip.PrefixFrom(n.gateway, 24).String(), "dev", n.bridge},
		{"ip", "link", "set", n.bridge, "up"},
		{"iptables", "-w", "-t", "nat", "-A", "POSTROUTING", "-s", subnet.String(), "!", "-d", subnet.String(), "-m", "comment", "--comment", comment, "-j", "MASQUERADE"},
		{"iptables", "-w", "-I", "FORWARD", "-i", n.bridge, "-m", "comment", "--comment", comment, "-j", "ACCEPT"},
		{"iptables", "-w", "-I", "FORWARD", "-o", n.bridge, "-m", "comment", "--comment", comment, "-j", "ACCEPT"},
	}
	for _, s := range steps {
		if err := netcmd.Run(ctx, s...); err != nil {
			rmErr := n.removeLocked(context.WithoutCancel(ctx))
			return errors.Join(fmt.Errorf("making the LXC bridge %s: %w", n.bridge, explainLXCNet(err)), rmErr)
		}
	}
	if b, err := os.ReadFile(ipForward); err == nil && strings.TrimSpace(string(b)) == "0" {
		if err := os.WriteFile(ipForward, []byte("1\n"), 0o644); err != nil {
			rmErr := n.removeLocked(context.WithoutCancel(ctx))
			return errors.Join(fmt.Errorf("turning on IPv4 forwarding for the LXC bridge, as lxc-net does: %w", err), rmErr)
		}
		n.forwardSet = true
	}
	n.up = true
	return nil
}

// remove deletes the bridge and every rule of this process.
func (n *lxcNetwork) remove(ctx context.Context) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.up {
		return nil
	}
	return n.removeLocked(ctx)
}

func (n *lxcNetwork) removeLocked(ctx context.Context) error {
	n.up = false
	err := removeLXCNetwork(ctx, n.pid)
	if n.forwardSet {
		n.forwardSet = false
		if werr := os.WriteFile(ipForward, []byte("0\n"), 0o644); werr != nil {
			err = errors.Join(err, fmt.Errorf("turning IPv4 forwarding off again: %w", werr))
		}
	}
	return err
}

// removeLXCNetwork deletes the bridge of process pid and the rules whose
// comment names it (its containers' too).
func removeLXCNetwork(ctx context.Context, pid int) error {
	errs := []error{removeLXCRules(ctx, lxcRuleComment+strconv.Itoa(pid), true)}
	if err := netcmd.Run(ctx, "ip", "link", "del", lxcBridgePrefix+strconv.Itoa(pid)); err != nil && !wire.Gone(err) {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// addr gives out a free address of the subnet.
func (n *lxcNetwork) addr() (netip.Addr, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.up {
		return netip.Addr{}, errors.New("the LXC bridge is not up")
	}
	for range 253 {
		n.next = n.next%254 + 1
		if n.next == 1 {
			continue // the gateway
		}
		b := n.subnet.Addr().As4()
		b[3] = byte(n.next)
		a := netip.AddrFrom4(b)
		if !n.inUse[a] {
			n.inUse[a] = true
			return a, nil
		}
	}
	return netip.Addr{}, fmt.Errorf("all 253 addresses of %s are in use by running containers", n.subnet)
}

// release gives an address back.
func (n *lxcNetwork) release(a netip.Addr) {
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.inUse, a)
}

// publish adds the DNAT rules that make each port reach the container at
// ip, as Docker's port publishing does: in PREROUTING for clients on other
// hosts or network namespaces, in OUTPUT for clients on this host, at the
// port's host address (any local address when it has none).
func publishLXC(ctx context.Context, comment string, ip netip.Addr, ports []env.Port) error {
	for _, p := range ports {
		if a, err := netip.ParseAddr(p.HostIP); err == nil && a.IsLoopback() {
			return fmt.Errorf("port %s: LXC has no userland proxy to serve a port at %s (the wire level proxy is Docker's docker-proxy): "+
				"use --wire host or netns for lxc", p, p.HostIP)
		}
		match := []string{"-m", "addrtype", "--dst-type", "LOCAL"}
		if p.HostIP != "" {
			match = []string{"-d", p.HostIP}
		}
		for _, chain := range []string{"PREROUTING", "OUTPUT"} {
			args := append([]string{"iptables", "-w", "-t", "nat", "-A", chain}, match...)
			args = append(args, "-p", p.Proto, "--dport", strconv.Itoa(p.Port), "-m", "comment", "--comment", comment,
				"-j", "DNAT", "--to-destination", net.JoinHostPort(ip.String(), strconv.Itoa(p.Port)))
			if err := netcmd.Run(ctx, args...); err != nil {
				return fmt.Errorf("publishing port %s of the LXC container: %w", p, explainLXCNet(err))
			}
		}
	}
	return nil
}

// removeLXCRules deletes the rules of the nat and filter tables whose
// comment is comment, or, with prefix, starts with it followed by nothing
// or a colon (boxtax-lxc:12 matches boxtax-lxc:12:boxtax-12-3 but not
// boxtax-lxc:123).
func removeLXCRules(ctx context.Context, comment string, prefix bool) error {
	var errs []error
	for _, table := range []string{"nat", "filter"} {
		rules, err := lxcRules(ctx, table)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, r := range rules {
			c := r.Comment
			if c != comment && !(prefix && strings.HasPrefix(c, comment+":")) {
				continue
			}
			args := append([]string{"iptables", "-w", "-t", table, "-D"}, r.Spec...)
			if err := netcmd.Run(ctx, args...); err != nil && !strings.Contains(err.Error(), "does a matching rule exist") {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// lxcRules lists the rules of a table that carry a boxtax LXC comment.
func lxcRules(ctx context.Context, table string) ([]netcmd.Rule, error) {
	out, err := netcmd.Output(ctx, "iptables", "-w", "-t", table, "-S")
	if err != nil {
		return nil, explainLXCNet(err)
	}
	return parseLXCRules(out), nil
}

// parseLXCRules picks boxtax's LXC rules from iptables -S output.
func parseLXCRules(out string) []netcmd.Rule { return netcmd.CommentedRules(out, lxcRuleComment) }

// freeLXCSubnet picks a 10.0.X.0/24 (X from 4 to 254) that no address or
// route of the host overlaps, starting at a place drawn from the pid so
// that two boxtax processes rarely try the same one.
func freeLXCSubnet(pid int) (netip.Prefix, error) {
	addrs, err := wire.HostIPv4()
	if err != nil {
		return netip.Prefix{}, err
	}
	var taken []netip.Prefix
	for _, a := range addrs {
		taken = append(taken, a.Masked())
	}
	taken = append(taken, hostRoutes()...)
	for i := range 251 {
		x := 4 + (pid+i)%251
		p := netip.PrefixFrom(netip.AddrFrom4([4]byte{10, 0, byte(x), 0}), 24)
		free := true
		for _, t := range taken {
			if t.Bits() > 0 && t.Overlaps(p) {
				free = false
				break
			}
		}
		if free {
			return p, nil
		}
	}
	return netip.Prefix{}, errors.New("every 10.0.X.0/24 (X 4 to 254) is in use on this host: no subnet left for the LXC bridge")
}

// hostRoutes are the IPv4 routes of the host's main table, but the default route.
func hostRoutes() []netip.Prefix {
	b, err := os.ReadFile("/proc/net/route")
	if err != nil {
		return nil
	}
	var out []netip.Prefix
	for _, line := range strings.Split(string(b), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) < 8 {
			continue
		}
		dst, err1 := hex.DecodeString(f[1])
		mask, err2 := hex.DecodeString(f[7])
		if err1 != nil || err2 != nil || len(dst) != 4 || len(mask) != 4 {
			continue
		}
		// /proc/net/route holds them in the host's byte order: little-endian here.
		ip := netip.AddrFrom4([4]byte{dst[3], dst[2], dst[1], dst[0]})
		ones, _ := net.IPv4Mask(mask[3], mask[2], mask[1], mask[0]).Size()
		if ones > 0 {
			out = append(out, netip.PrefixFrom(ip, ones).Masked())
		}
	}
	return out
}

// lxcVethName names the host end of container n's veth pair: bxl<pid>v<n>,
// hexadecimal when the decimal would pass the 15 characters a name may have.
func lxcVethName(pid, n int) string {
	s := fmt.Sprintf("bxl%dv%d", pid, n)
	if len(s) > 15 {
		s = fmt.Sprintf("bxl%xv%d", pid, n%10000)
	}
	return s
}

// lxcCmd runs a command of ip, iptables or LXC's tools, bounded in time;
// its error holds what the command said.

// explainLXCNet adds what to do to the usual failures of ip and iptables.
func explainLXCNet(err error) error {
	var ce *netcmd.Error
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return fmt.Errorf("%w: the LXC network needs ip and iptables (apt-get install iproute2 iptables)", err)
	case errors.As(err, &ce) && (strings.Contains(ce.Out, "Operation not permitted") || strings.Contains(ce.Out, "Permission denied")):
		return fmt.Errorf("%w: making a bridge and NAT rules needs root (run boxtax as root)", err)
	}
	return err
}
