package lxc

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/hostinfo"
)

func init() {
	hostinfo.RegisterEngine("lxc", 4, func() hostinfo.Engine { return new(EngineFacts) })
}

// EngineFacts are what LXC tells about itself, recorded with studies that run the lxc
// environment.
type EngineFacts struct {
	Version       string `json:"version"`        // lxc-execute --version, e.g. 5.0.2
	CgroupVersion string `json:"cgroup_version"` // 1 (or hybrid) or 2: which lxc.cgroup keys boxtax writes
	Storage       string `json:"storage"`        // the root filesystem's backing store: dir (no overlay)
	Error         string `json:"error,omitempty"`
}

// Name is LXC and its version, e.g. "LXC 5.0.2"; empty when unknown.
func (l *EngineFacts) Name() string {
	if l == nil || l.Version == "" {
		return ""
	}
	return "LXC " + l.Version
}

// Summary is LXC's version, backing store and cgroup version, e.g. "LXC
// 5.0.2, storage dir, cgroup v1"; empty when unknown.
func (l *EngineFacts) Summary() string {
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
func (l *EngineFacts) Detail() string {
	if l.Error != "" {
		return "unavailable: " + l.Error
	}
	return fmt.Sprintf("%s, storage %s, cgroup v%s", l.Name(), l.Storage, l.CgroupVersion)
}

// Facts are LXC's Summary in a row, or why it was not asked.
func (l *EngineFacts) Facts() []hostinfo.Fact {
	if l.Error != "" {
		return []hostinfo.Fact{{Name: "LXC", Value: "not asked: " + l.Error}}
	}
	return []hostinfo.Fact{{Name: "LXC", Value: l.Summary()}}
}

// Collect asks LXC's tools for their version.
func Collect(ctx context.Context) *EngineFacts {
	l := &EngineFacts{Storage: "dir", CgroupVersion: "1"}
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

// FactsKey implements env.FactTeller: LXC's tools' facts.
func (l *lxcEnv) FactsKey() string { return "lxc" }

// Facts implements env.FactTeller: LXC's version, storage and cgroups; nil
// where LXC is not installed.
func (l *lxcEnv) Facts(ctx context.Context) hostinfo.Engine {
	if _, err := exec.LookPath("lxc-execute"); err != nil {
		return nil
	}
	return Collect(ctx)
}

var _ env.FactTeller = (*lxcEnv)(nil)
