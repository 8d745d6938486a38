package hostinfo

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// LXC holds facts about LXC, recorded with studies that run the lxc
// environment.
type LXC struct {
	Version       string `json:"version"`        // lxc-execute --version, e.g. 5.0.2
	CgroupVersion string `json:"cgroup_version"` // 1 (or hybrid) or 2: which lxc.cgroup keys boxtax writes
	Storage       string `json:"storage"`        // the root filesystem's backing store: dir (no overlay)
	Error         string `json:"error,omitempty"`
}

// Name is LXC and its version, e.g. "LXC 5.0.2"; empty when unknown.
func (l *LXC) Name() string {
	if l == nil || l.Version == "" {
		return ""
	}
	return "LXC " + l.Version
}

// Summary is LXC's version, backing store and cgroup version, e.g. "LXC
// 5.0.2, storage dir, cgroup v1"; empty when unknown.
func (l *LXC) Summary() string {
	if l.Name() == "" {
		return ""
	}
	parts := []string{l.Name()}
	if l.Storage != "" {
		parts = append(parts, "storage "+l.Storage)
	}
	if l.CgroupVersion != "" {
		parts = append(parts, "cgroup v"+l.CgroupVersion)
	}
	return strings.Join(parts, ", ")
}

// Detail is what boxtax sysinfo says of LXC, or why it could not be asked.
func (l *LXC) Detail() string {
	if l.Error != "" {
		return "unavailable: " + l.Error
	}
	return fmt.Sprintf("%s, storage %s, cgroup v%s", l.Name(), l.Storage, l.CgroupVersion)
}

// Facts are LXC's Summary in a row, or why it was not asked.
func (l *LXC) Facts() []Fact {
	if l.Error != "" {
		return []Fact{{"LXC", "not asked: " + l.Error}}
	}
	return []Fact{{"LXC", l.Summary()}}
}

// CollectLXC asks LXC's tools for their version.
func CollectLXC(ctx context.Context) *LXC {
	l := &LXC{Storage: "dir", CgroupVersion: "1"}
	var st syscall.Statfs_t
	if syscall.Statfs("/sys/fs/cgroup", &st) == nil && st.Type == 0x63677270 {
		l.CgroupVersion = "2"
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "lxc-execute", "--version")
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	out, err := cmd.Output()
	if err != nil {
		l.Error = "lxc-execute --version: " + err.Error()
		return l
	}
	l.Version = strings.TrimSpace(string(out))
	return l
}
