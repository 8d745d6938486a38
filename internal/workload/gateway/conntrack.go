package gateway

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// conntrack is what the host's connection tracking (netfilter) says. Every
// TCP connection takes an entry, kept 2 minutes after it closed
// (nf_conntrack_tcp_timeout_time_wait); a load that opens tens of thousands
// of connections a second, as keep-alive off does on a fast host, fills the
// table (nf_conntrack_max) in seconds, and the kernel then drops the SYNs of
// new connections, which wait a second to retry. That is the host's limit,
// not the gateway's: the client notes it so that a run is not misread.
type conntrack struct {
	ok         bool
	drops      int64 // packets dropped for want of an entry, all CPUs
	count, max int64
}

// readConntrack reads the counters; ok is false where there is no
// connection tracking (no module loaded, or another network namespace).
func readConntrack() conntrack {
	var c conntrack
	f, err := os.Open("/proc/net/stat/nf_conntrack")
	if err != nil {
		return c
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	col := -1
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if col < 0 {
			for i, name := range fields {
				if name == "drop" {
					col = i
				}
			}
			if col < 0 {
				return c
			}
			continue
		}
		if col < len(fields) {
			if v, err := strconv.ParseInt(fields[col], 16, 64); err == nil {
				c.drops += v
			}
		}
	}
	c.ok = true
	c.count = readInt("/proc/sys/net/netfilter/nf_conntrack_count")
	c.max = readInt("/proc/sys/net/netfilter/nf_conntrack_max")
	return c
}

func readInt(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	v, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return v
}
