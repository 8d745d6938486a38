package lxc

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/errtest"
)

func TestLXCConfigRender(t *testing.T) {
	base := lxcConfig{Name: "boxtax-1-2", Rootfs: "/r", Tmp: "/c/tmp", Labels: map[string]string{"io.boxtax.run": "7"}}
	for _, tt := range []struct {
		name    string
		edit    func(*lxcConfig)
		want    []string // lines the config must have
		notWant []string // substrings it must not have
		err     string
	}{
		{name: "defaults: no capabilities, loopback only, v1 devices",
			want: []string{"lxc.cap.keep = none", "lxc.net.0.type = empty", "lxc.rootfs.path = dir:/r", "lxc.rootfs.options = ro",
				"lxc.mount.entry = /c/tmp tmp none bind,create=dir 0 0", "lxc.cgroup.devices.deny = a", "# label io.boxtax.run=7"},
			notWant: []string{"cpuset", "prlimit", "cgroup2", "seccomp"}},
		{name: "capabilities kept are exactly the ones asked for",
			edit: func(c *lxcConfig) { c.CapKeep = []string{"SYS_NICE", "CAP_IPC_LOCK", "SYS_NICE"} },
			want: []string{"lxc.cap.keep = ipc_lock sys_nice"}, notWant: []string{"lxc.cap.keep = none"}},
		{name: "cpuset, real-time budget and limits on cgroup v1",
			edit: func(c *lxcConfig) {
				c.CPUSet, c.RealtimeRuntimeUs = "0-1", 950000
				c.Ulimits = map[string]int64{"rtprio": 99, "memlock": -1}
			},
			want: []string{"lxc.cgroup.cpuset.cpus = 0-1", "lxc.cgroup.cpu.rt_runtime_us = 950000", "lxc.prlimit.rtprio = 99", "lxc.prlimit.memlock = unlimited"}},
		{name: "cgroup v2 keys",
			edit: func(c *lxcConfig) { c.CgroupV2, c.CPUSet = true, "1" },
			want: []string{"lxc.cgroup2.cpuset.cpus = 1", "lxc.cgroup2.devices.deny = a"}, notWant: []string{"lxc.cgroup.cpuset"}},
		{name: "no real-time budget on cgroup v2",
			edit: func(c *lxcConfig) { c.CgroupV2, c.RealtimeRuntimeUs = true, 950000 },
			err:  "needs cgroup v1"},
		{name: "veth into the bridge",
			edit: func(c *lxcConfig) {
				c.Bridge, c.VethHost, c.Addr, c.Gateway = "bxlxc1", "bxl1v2", "10.0.9.2/24", "10.0.9.1"
			},
			want: []string{"lxc.net.0.type = veth", "lxc.net.0.link = bxlxc1", "lxc.net.0.veth.pair = bxl1v2",
				"lxc.net.0.ipv4.address = 10.0.9.2/24", "lxc.net.0.ipv4.gateway = 10.0.9.1", "lxc.net.0.flags = up",
				"lxc.net.0.hwaddr = 02:42:0a:00:09:02"}},
		{name: "a line break in a value is refused",
			edit: func(c *lxcConfig) { c.Labels = map[string]string{"x": "a\nlxc.cap.keep = sys_admin"} },
			err:  "line break"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			if tt.edit != nil {
				tt.edit(&c)
			}
			got, err := c.render()
			if errtest.Want(t, err, tt.err) {
				return
			}
			lines := map[string]bool{}
			for _, l := range strings.Split(got, "\n") {
				lines[l] = true
			}
			for _, w := range tt.want {
				if !lines[w] {
					t.Errorf("config lacks the line %q:\n%s", w, got)
				}
			}
			for _, nw := range tt.notWant {
				if strings.Contains(got, nw) {
					t.Errorf("config has %q:\n%s", nw, got)
				}
			}
			if labels := lxcLabels(got); labels["io.boxtax.run"] != c.Labels["io.boxtax.run"] {
				t.Errorf("labels read back = %v, want %v", labels, c.Labels)
			}
		})
	}
}

func TestCheckLXCUlimits(t *testing.T) {
	if err := checkLXCUlimits(map[string]int64{"rtprio": 99, "nofile": 1024}); err != nil {
		t.Errorf("known limits refused: %v", err)
	}
	if err := checkLXCUlimits(map[string]int64{"nofiles": 1}); err == nil || !strings.Contains(err.Error(), "nofile") {
		t.Errorf("unknown limit: error = %v, want one listing the valid names", err)
	}
}

func TestParseLXCRules(t *testing.T) {
	out := `-P PREROUTING ACCEPT
-A PREROUTING -m addrtype --dst-type LOCAL -j DOCKER
-A PREROUTING -d 10.0.9.1/32 -p tcp -m tcp --dport 5000 -m comment --comment "boxtax-lxc:12:boxtax-12-3" -j DNAT --to-destination 10.0.9.2:5000
-A POSTROUTING -s 10.0.9.0/24 ! -d 10.0.9.0/24 -m comment --comment boxtax-lxc:12 -j MASQUERADE
-A POSTROUTING -m comment --comment "someone else" -j MASQUERADE
`
	rules := parseLXCRules(out)
	if len(rules) != 2 {
		t.Fatalf("got %d rules, want boxtax's 2: %+v", len(rules), rules)
	}
	for i, want := range []struct{ comment, spec string }{
		{"boxtax-lxc:12:boxtax-12-3", "PREROUTING -d 10.0.9.1/32 -p tcp -m tcp --dport 5000 -m comment --comment boxtax-lxc:12:boxtax-12-3 -j DNAT --to-destination 10.0.9.2:5000"},
		{"boxtax-lxc:12", "POSTROUTING -s 10.0.9.0/24 ! -d 10.0.9.0/24 -m comment --comment boxtax-lxc:12 -j MASQUERADE"},
	} {
		if rules[i].Comment != want.comment || strings.Join(rules[i].Spec, " ") != want.spec {
			t.Errorf("rule %d = %q %q, want %q %q", i, rules[i].Comment, strings.Join(rules[i].Spec, " "), want.comment, want.spec)
		}
	}
}

func TestLXCNames(t *testing.T) {
	for _, tt := range []struct {
		pid, n int
		veth   string
	}{{12, 3, "bxl12v3"}, {4194304, 9999, "bxl4194304v9999"}, {4194304, 12345, "bxl400000v2345"}} {
		if got := lxcVethName(tt.pid, tt.n); got != tt.veth || len(got) > 15 {
			t.Errorf("lxcVethName(%d, %d) = %q, want %q (15 characters at most)", tt.pid, tt.n, got, tt.veth)
		}
	}
	if pid, n, ok := parseLXCName("boxtax-123-4"); !ok || pid != 123 || n != 4 {
		t.Errorf("parseLXCName = %d %d %v", pid, n, ok)
	}
	for _, bad := range []string{"boxtax-x-1", "other-1-2", "boxtax-1"} {
		if _, _, ok := parseLXCName(bad); ok {
			t.Errorf("parseLXCName(%q) accepted", bad)
		}
	}
}

func TestFreeLXCSubnet(t *testing.T) {
	p, err := freeLXCSubnet(0)
	if err != nil {
		t.Fatal(err)
	}
	if !netip.MustParsePrefix("10.0.0.0/16").Contains(p.Addr()) || p.Bits() != 24 || p.Addr().As4()[2] < 4 {
		t.Errorf("subnet %s is not a 10.0.X.0/24 with X >= 4", p)
	}
	for _, r := range hostRoutes() {
		if r.Overlaps(p) {
			t.Errorf("subnet %s overlaps the host's route %s", p, r)
		}
	}
}

// lxcLabels reads the labels back from a config file's comments.
func lxcLabels(config string) map[string]string {
	labels := map[string]string{}
	for _, l := range strings.Split(config, "\n") {
		if rest, ok := strings.CutPrefix(l, lxcLabelPrefix); ok {
			if k, v, ok := strings.Cut(rest, "="); ok {
				labels[k] = v
			}
		}
	}
	return labels
}
