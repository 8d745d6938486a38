package lxc

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/env"
)

func TestLXCConfigLimits(t *testing.T) {
	for _, v2 := range []bool{false, true} {
		text, err := lxcConfig{Name: "x", Rootfs: "/r", Tmp: "/t", CgroupV2: v2, CPUQuotaNano: env.CPUsNano("1.5"), MemoryBytes: 64 << 20}.render()
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"lxc.cgroup.cpu.cfs_quota_us = 150000", "lxc.cgroup.cpu.cfs_period_us = 100000", "lxc.cgroup.memory.limit_in_bytes = 67108864"}
		if v2 {
			want = []string{"lxc.cgroup2.cpu.max = 150000 100000", "lxc.cgroup2.memory.max = 67108864"}
		}
		for _, w := range want {
			if !strings.Contains(text, w+"\n") {
				t.Errorf("cgroup v2 %v: config lacks %q:\n%s", v2, w, text)
			}
		}
	}
}
