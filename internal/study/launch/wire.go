package launch

import (
	"context"
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/wire"
	"github.com/boxtax/boxtax/internal/workload"
)

// WireFactor is the reserved factor that says where the client of a network
// workload stands, and so which path its packets take to the server in the
// environment under test:
//   - host: on the host, reaching the server as a program on the host would:
//     directly natively and with host networking, through the published port
//     and Docker's NAT (DNAT) on the bridge (at the bridge's own address);
//   - proxy: on the host too, but at 127.0.0.1, where a published port is
//     served by Docker's userland proxy (docker-proxy) when the daemon runs
//     it, as for "curl localhost:PORT"; natively and with host networking
//     the same as host;
//   - netns: in a network namespace of its own, joined to the host by a veth
//     pair, reaching the server at the host's end of the pair as a client on
//     another machine would (the seeds' separate PC);
//   - netns:RATE: the same, each direction shaped with tc tbf to RATE, e.g.
//     netns:100mbit for the seeds' 100 Mbit/s Ethernet.
//
// It applies to network workloads only, which run with host without it.
const WireFactor = "wire"

// Wire kinds.
const (
	WireHost  = "host"
	WireProxy = "proxy"
	WireNetns = "netns"
)

// WireLevel is one level of the wire factor.
type WireLevel struct {
	Netns        bool
	Proxy        bool    // host, through 127.0.0.1
	RateBitsPerS float64 // netns only; 0: unshaped
}

// ParseWireLevel reads host, netns or netns:RATE.
func ParseWireLevel(s string) (WireLevel, error) {
	kind, rate, shaped := strings.Cut(strings.TrimSpace(s), ":")
	switch {
	case kind == WireHost && !shaped:
		return WireLevel{}, nil
	case kind == WireProxy && !shaped:
		return WireLevel{Proxy: true}, nil
	case kind == WireNetns && !shaped:
		return WireLevel{Netns: true}, nil
	case kind == WireNetns:
		bits, err := workload.ParseBitRate(rate)
		if err != nil || bits < 8000 {
			return WireLevel{}, fmt.Errorf("wire level %q: the rate must be a bit rate of at least 8kbit, like netns:100mbit", s)
		}
		return WireLevel{Netns: true, RateBitsPerS: bits}, nil
	case kind == WireHost || kind == WireProxy:
		return WireLevel{}, fmt.Errorf("wire level %q: only netns levels have a rate (the host's own path is not shaped)", s)
	}
	return WireLevel{}, fmt.Errorf("wire level %q: valid levels are host, proxy, netns and netns:RATE (e.g. netns:100mbit)", s)
}

// String renders the level as written in a spec.
func (l WireLevel) String() string {
	switch {
	case l.Proxy:
		return WireProxy
	case !l.Netns:
		return WireHost
	case l.RateBitsPerS > 0:
		return WireNetns + ":" + wire.FormatRate(l.RateBitsPerS)
	}
	return WireNetns
}

// WireOf reads a cell's wire level; host when it has none.
func WireOf(levels map[string]string) (WireLevel, error) {
	if lv, ok := levels[WireFactor]; ok {
		return ParseWireLevel(lv)
	}
	return WireLevel{}, nil
}

// IsNetwork tells workloads with a server and a client side, the
// only ones the wire factor applies to.
func IsNetwork(name string) bool {
	wl, err := workload.Lookup(name)
	if err != nil {
		return false
	}
	_, ok := wl.(workload.ClientServer)
	return ok
}

// NetworkWorkloads lists the registered network workloads.
func NetworkWorkloads() []string {
	var out []string
	for _, n := range workload.Names() {
		if IsNetwork(n) {
			out = append(out, n)
		}
	}
	return out
}

// CheckWire tries, before a study starts, whether its netns levels can
// be made here (a namespace, a veth pair, and tc shaping when a level has a
// rate), and when not says what is missing and which levels can still run.
func CheckWire(ctx context.Context, levels []string) error {
	var netns, shaped, host []string
	for _, lv := range levels {
		l, err := ParseWireLevel(lv)
		switch {
		case err != nil:
			return err
		case !l.Netns:
			host = append(host, l.String())
		case l.RateBitsPerS > 0:
			shaped = append(shaped, l.String())
		default:
			netns = append(netns, l.String())
		}
	}
	if len(netns)+len(shaped) == 0 {
		return nil
	}
	if err := wire.Check(ctx, false); err != nil {
		return wireProblem(err, append(netns, shaped...), host)
	}
	if len(shaped) > 0 {
		if err := wire.Check(ctx, true); err != nil {
			return wireProblem(err, shaped, append(host, netns...))
		}
	}
	return nil
}
func wireProblem(err error, cannot, can []string) error {
	hint := "no wire level of this study can run here"
	if len(can) > 0 {
		hint = "to run without them: --wire " + strings.Join(can, ",")
	}
	return fmt.Errorf("wire level(s) %s cannot run here: %w\n%s", strings.Join(cannot, ", "), err, hint)
}
