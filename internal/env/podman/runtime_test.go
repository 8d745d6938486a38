package podman

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/envtest"
)

// What a Podman environment's runtime option cannot do here is refused
// before the study, with the reason; the rest is accepted.
func TestPodmanRuntimeRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, want string
	}{
		{"podman-bridge+runtime=kata", "take the runtimes crun, runc, runsc"},
		{"podman-rootless+runtime=runsc", "rootful Podman only"},
		{"podman-bridge+runtime=runsc+userns=auto", "userns=auto"},
	} {
		p := envtest.New(t, Environments(), tc.name, env.Options{}).(*podmanEnv)
		err := p.checkPodmanRuntime()
		if tc.name == "podman-bridge+runtime=kata" || lookPathOK("runsc") {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: %v; want an error with %q", tc.name, err, tc.want)
			}
		}
	}
	p := envtest.New(t, Environments(), "podman-bridge+runtime=crun", env.Options{}).(*podmanEnv)
	err := p.checkPodmanRuntime()
	switch {
	case !lookPathOK("crun"):
		if err == nil || !strings.Contains(err.Error(), "apt-get install crun") {
			t.Errorf("crun absent: %v; want how to install it", err)
		}
	case cgroupHybrid():
		if err == nil || !strings.Contains(err.Error(), "hybrid cgroup layout") {
			t.Errorf("crun on a hybrid cgroup host: %v; want the refusal crun would give at every run", err)
		}
	case err != nil:
		t.Errorf("crun: %v", err)
	}
}

// gVisor refuses real-time workloads; others pass.
func TestGVisorRefusesRealTime(t *testing.T) {
	if why := gVisorRefuses(env.Spec{CapAdd: []string{"SYS_NICE"}, CPURealtimeRuntimeUs: 950000}); !strings.Contains(why, "no real-time scheduling") {
		t.Errorf("a real-time spec: %q", why)
	}
	if why := gVisorRefuses(env.Spec{Args: []string{"worker"}}); why != "" {
		t.Errorf("a plain spec refused: %q", why)
	}
	p := envtest.New(t, Environments(), "podman-bridge+runtime=runsc", env.Options{}).(*podmanEnv)
	if err := p.CheckSpec(t.Context(), env.Spec{CPURealtimeRuntimeUs: 950000}); err == nil || !strings.Contains(err.Error(), "podman-bridge+runtime=runsc: gVisor") {
		t.Errorf("CheckSpec of a real-time spec in runsc: %v", err)
	}
}

// A Podman service per runtime: runsc's with gVisor's network mode.
func TestRuntimeServiceArgs(t *testing.T) {
	if got := strings.Join(runtimeServiceArgs("runsc"), " "); got != "--runtime runsc --runtime-flag network=host" {
		t.Errorf("runsc: %q", got)
	}
	if got := strings.Join(runtimeServiceArgs("crun"), " "); got != "--runtime crun" {
		t.Errorf("crun: %q", got)
	}
}

func lookPathOK(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}
