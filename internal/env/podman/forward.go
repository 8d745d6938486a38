package podman

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/netcmd"
)

// podmanRuleComment marks the filter rule boxtax adds for Podman's bridge:
// boxtax-podman:<pid>.
const podmanRuleComment = "boxtax-podman:"

// allowPodmanForward lets connections to ports Podman published reach its
// bridge when they arrive from another interface (a client across a wire):
// Docker sets the filter table's FORWARD policy to DROP, and netavark 1.4
// accepts only replies and the containers' own traffic there, relying on a
// policy of ACCEPT. The rule accepts nothing but connections the kernel
// DNATed into Podman's subnet, that is, published ports. It is added only
// where the policy is DROP, once per process; Close removes it.
func allowPodmanForward(ctx context.Context, c *docker.Client) (added bool, err error) {
	out, err := netcmd.Output(ctx, "iptables", "-w", "-S", "FORWARD")
	if err != nil || !strings.Contains(out, "-P FORWARD DROP") {
		return false, nil // no iptables, or nothing dropped: nothing to do
	}
	n, err := c.NetworkInspect(ctx, "bridge")
	if err != nil {
		return false, err
	}
	var errs []error
	comment := podmanRuleComment + strconv.Itoa(os.Getpid())
	for _, cfg := range n.IPAM.Config {
		if cfg.Subnet == "" || strings.Contains(cfg.Subnet, ":") {
			continue
		}
		if err := netcmd.Run(ctx, "iptables", "-w", "-I", "FORWARD", "-d", cfg.Subnet, "-m", "conntrack", "--ctstate", "DNAT",
			"-m", "comment", "--comment", comment, "-j", "ACCEPT"); err != nil {
			errs = append(errs, fmt.Errorf("letting published ports reach Podman's bridge through Docker's FORWARD policy: %w", err))
			continue
		}
		added = true
	}
	return added, errors.Join(errs...)
}

// removePodmanForward removes the FORWARD rules of boxtax process pid, or
// with pid 0 those of every boxtax process that no longer runs (boxtax
// clean), and returns how many it removed.
func removePodmanForward(ctx context.Context, pid int) (int, error) {
	out, err := netcmd.Output(ctx, "iptables", "-w", "-S", "FORWARD")
	if err != nil {
		return 0, nil
	}
	var errs []error
	removed := 0
	for _, r := range netcmd.CommentedRules(out, podmanRuleComment) {
		owner, err := strconv.Atoi(strings.TrimPrefix(r.Comment, podmanRuleComment))
		if err != nil || pid != 0 && owner != pid || pid == 0 && env.ProcessAlive(owner) {
			continue
		}
		if err := netcmd.Run(ctx, append([]string{"iptables", "-w", "-D"}, r.Spec...)...); err != nil && !strings.Contains(err.Error(), "does a matching rule exist") {
			errs = append(errs, err)
			continue
		}
		removed++
	}
	return removed, errors.Join(errs...)
}
