package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// NamePrefix starts the name of every namespace boxtax makes.
const NamePrefix = "boxtax-"

// Wire is a network namespace for a client, joined to the host by a veth pair.
type Wire struct {
	Namespace  string     // boxtax-<pid>-<n>
	HostLink   string     // the host's end of the veth pair
	ClientLink string     // the end inside the namespace
	HostAddr   netip.Addr // the host's address on the wire: where the client connects
	ClientAddr netip.Addr // the client's address
	// RateBitsPerS is the shaped rate of each direction; 0 means unshaped
	// (as fast as the host moves packets between the ends).
	RateBitsPerS float64
}

// Settings describe the wire for a run's record.
func (w *Wire) Settings() map[string]string {
	rate := "unshaped"
	if w.RateBitsPerS > 0 {
		rate = FormatRate(w.RateBitsPerS)
	}
	return map[string]string{
		"wire_netns":   w.Namespace,
		"wire_links":   w.HostLink + "<->" + w.ClientLink,
		"wire_addrs":   w.HostAddr.String() + "<->" + w.ClientAddr.String(),
		"wire_rate":    rate,
		"wire_shaping": w.shaping(),
	}
}

// shaping is the tc qdisc on each end, as given to tc.
func (w *Wire) shaping() string {
	if w.RateBitsPerS <= 0 {
		return "none"
	}
	return "tbf " + strings.Join(tbfArgs(w.RateBitsPerS), " ")
}

// FormatRate renders a rate as tc writes it: 100mbit, 1.5gbit, 64kbit.
func FormatRate(bitsPerS float64) string {
	switch {
	case bitsPerS >= 1e9:
		return strconv.FormatFloat(bitsPerS/1e9, 'f', -1, 64) + "gbit"
	case bitsPerS >= 1e6:
		return strconv.FormatFloat(bitsPerS/1e6, 'f', -1, 64) + "mbit"
	case bitsPerS >= 1e3:
		return strconv.FormatFloat(bitsPerS/1e3, 'f', -1, 64) + "kbit"
	}
	return strconv.FormatFloat(bitsPerS, 'f', 0, 64) + "bit"
}

// tbfArgs are tc's arguments after "tbf" for a rate: a bucket of 4 ms of
// traffic but at least 64 KiB (so a TCP segmentation-offload burst passes
// whole), and a queue of at most 20 ms (a switch port's buffer, roughly).
func tbfArgs(bitsPerS float64) []string {
	burst := int64(bitsPerS / 8 * 0.004)
	if burst < 64<<10 {
		burst = 64 << 10
	}
	return []string{"rate", strconv.FormatInt(int64(bitsPerS), 10) + "bit", "burst", strconv.FormatInt(burst, 10), "latency", "20ms"}
}

var (
	seq       atomic.Int64
	staleOnce sync.Once
	createMu  sync.Mutex // address choice and creation, one wire at a time
)

// Create makes a wire: the namespace, the veth pair with an address on each
// end, and, when bitsPerS > 0, a tbf qdisc on each end, so each direction is
// shaped as on a full-duplex link. What was made is removed again when a
// step fails. The first call of a process also removes the wires of boxtax
// processes that no longer run.
func Create(ctx context.Context, bitsPerS float64) (*Wire, error) {
	staleOnce.Do(func() { _, _ = RemoveStale(ctx) })
	createMu.Lock()
	defer createMu.Unlock()
	n := seq.Add(1)
	pid := os.Getpid()
	w := &Wire{Namespace: fmt.Sprintf("%s%d-%d", NamePrefix, pid, n), RateBitsPerS: bitsPerS}
	w.HostLink, w.ClientLink = linkNames(pid, int(n))
	var err error
	if w.HostAddr, w.ClientAddr, err = freeSubnet(pid, int(n)); err != nil {
		return nil, err
	}
	steps := [][]string{
		{"ip", "netns", "add", w.Namespace},
		{"ip", "link", "add", w.HostLink, "type", "veth", "peer", "name", w.ClientLink, "netns", w.Namespace},
		{"ip", "addr", "add", w.HostAddr.String() + "/30", "dev", w.HostLink},
		{"ip", "link", "set", w.HostLink, "up"},
		{"ip", "-n", w.Namespace, "addr", "add", w.ClientAddr.String() + "/30", "dev", w.ClientLink},
		{"ip", "-n", w.Namespace, "link", "set", w.ClientLink, "up"},
		{"ip", "-n", w.Namespace, "link", "set", "lo", "up"},
	}
	if bitsPerS > 0 {
		tbf := tbfArgs(bitsPerS)
		steps = append(steps,
			append([]string{"tc", "qdisc", "add", "dev", w.HostLink, "root", "tbf"}, tbf...),
			append([]string{"tc", "-n", w.Namespace, "qdisc", "add", "dev", w.ClientLink, "root", "tbf"}, tbf...))
	}
	for _, s := range steps {
		if err := run(ctx, s...); err != nil {
			rmErr := w.Remove(context.WithoutCancel(ctx))
			return nil, errors.Join(explain(err), rmErr)
		}
	}
	return w, nil
}

// Remove deletes the veth pair (both ends and their qdiscs go with it) and
// the namespace. It is idempotent: what is already gone is no error.
func (w *Wire) Remove(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	var errs []error
	if err := run(ctx, "ip", "link", "del", w.HostLink); err != nil && !Gone(err) {
		errs = append(errs, err)
	}
	if err := run(ctx, "ip", "netns", "del", w.Namespace); err != nil && !Gone(err) {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return fmt.Errorf("removing wire %s: %w (remove it by hand: ip netns del %s)", w.Namespace, errors.Join(errs...), w.Namespace)
	}
	return nil
}

// linkNames names the ends of wire n of process pid: bx<pid>h<n> on the
// host, bx<pid>c<n> in the namespace (hexadecimal when the decimal would
// pass the 15 characters an interface name may have).
func linkNames(pid, n int) (host, client string) {
	host, client = fmt.Sprintf("bx%dh%d", pid, n), fmt.Sprintf("bx%dc%d", pid, n)
	if len(host) > 15 {
		host, client = fmt.Sprintf("bx%xh%d", pid, n%1000), fmt.Sprintf("bx%xc%d", pid, n%1000)
	}
	return host, client
}

// freeSubnet picks a /30 of 198.18.0.0/15 that no interface of the host
// uses, starting at a place drawn from the process id and the wire's number
// so that two boxtax processes rarely probe the same blocks.
func freeSubnet(pid, n int) (host, client netip.Addr, err error) {
	addrs, err := HostIPv4()
	if err != nil {
		return host, client, err
	}
	used := map[netip.Prefix]bool{}
	for _, a := range addrs {
		used[netip.PrefixFrom(a.Addr(), 30).Masked()] = true
	}
	const blocks = 1 << 15 // /30s in a /15
	start := (pid*64 + n) % blocks
	for i := 0; i < blocks; i++ {
		b := (start + i) % blocks
		base := netip.AddrFrom4([4]byte{198, byte(18 + b>>14), byte(b >> 6), byte(b<<2) & 0xff})
		if used[netip.PrefixFrom(base, 30)] {
			continue
		}
		return base.Next(), base.Next().Next(), nil
	}
	return host, client, errors.New("every /30 of 198.18.0.0/15 is in use on this host")
}

// run runs a command and returns its output with the error when it fails.
var run = func(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return &cmdError{args: args, out: strings.TrimSpace(out.String()), err: err}
	}
	return nil
}

// cmdError is a failed ip or tc command with what it said.
type cmdError struct {
	args []string
	out  string
	err  error
}

func (e *cmdError) Error() string {
	if e.out != "" {
		return strings.Join(e.args, " ") + ": " + e.out
	}
	return strings.Join(e.args, " ") + ": " + e.err.Error()
}

func (e *cmdError) Unwrap() error { return e.err }

// explain adds what to do to the usual failures.
func explain(err error) error {
	var ce *cmdError
	switch {
	case errors.Is(err, exec.ErrNotFound):
		var name string
		if errors.As(err, &ce) {
			name = ce.args[0]
		}
		return fmt.Errorf("%w: the netns wire needs iproute2's %s (apt-get install iproute2)", err, name)
	case errors.As(err, &ce) && (strings.Contains(ce.out, "Operation not permitted") || strings.Contains(ce.out, "Permission denied")):
		return fmt.Errorf("%w: making a network namespace and links needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN)", err)
	case errors.As(err, &ce) && ce.args[0] == "tc":
		return fmt.Errorf("%w: shaping the wire needs the kernel's tbf qdisc (module sch_tbf)", err)
	}
	return err
}
