package lxc

import (
	"context"
	"os/exec"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/hostinfo"
)

// FactsKey implements env.FactTeller: LXC's tools' facts.
func (l *lxcEnv) FactsKey() string { return "lxc" }

// Facts implements env.FactTeller: LXC's version, storage and cgroups; nil
// where LXC is not installed.
func (l *lxcEnv) Facts(ctx context.Context) hostinfo.Engine {
	if _, err := exec.LookPath("lxc-execute"); err != nil {
		return nil
	}
	return hostinfo.CollectLXC(ctx)
}

var _ env.FactTeller = (*lxcEnv)(nil)
