package podman

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/envtest"
	"github.com/boxtax/boxtax/internal/testenv"
)

// gVisorVersion is the kernel gVisor's Sentry says it is, in uname and
// /proc/version (release 20221219): the workload sees it from inside.
const gVisorVersion = "Linux version 4.4.0 #1 SMP Sun Jan 10 15:06:54 PST 2016"

// Each runtime for real, under rootful Podman: the run records the runtime
// Podman's own inspect says the container got, and the container sees it
// from inside (gVisor's kernel version string; the host's under runc and
// crun). crun on a hybrid cgroup host is refused before any run.
func TestPodmanRuntimesAsTheContainerSeesThem(t *testing.T) {
	for _, rt := range []string{"runc", "crun", "runsc"} {
		t.Run(rt, func(t *testing.T) {
			testenv.SkipShort(t, "Podman")
			testenv.RequireTool(t, "podman", "podman")
			testenv.RequireTool(t, rt, rt)
			name := "podman-bridge+runtime=" + rt
			if rt == "crun" && cgroupHybrid() {
				p := envtest.New(t, Environments(), name, env.Options{BinaryPath: envtest.BuildFakeWorker(t, t.TempDir()), Version: "test"}).(*podmanEnv)
				if err := p.Available(context.Background()); err == nil || !strings.Contains(err.Error(), "hybrid cgroup layout") {
					t.Fatalf("%s on a hybrid cgroup host: Available = %v; want it refused with the reason", name, err)
				}
				return
			}
			e := requirePodman(t, name)
			envtest.Prepare(t, e)
			var out bytes.Buffer
			settings, err := env.Run(context.Background(), e, env.Spec{Args: []string{"cat", "/proc/version"}}, &out, os.Stderr)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got := settings["runtime"]; got != rt && !strings.HasSuffix(got, "/"+rt) {
				t.Errorf("settings runtime %q, want %s (Podman's inspect); settings %v", got, rt, settings)
			}
			if settings["oci_runtime"] != settings["runtime"] || settings["options"] != "runtime="+rt {
				t.Errorf("settings: oci_runtime %q, options %q", settings["oci_runtime"], settings["options"])
			}
			inGVisor := strings.Contains(out.String(), gVisorVersion)
			if inGVisor != (rt == "runsc") {
				t.Errorf("%s: /proc/version in the container is %q: gVisor's kernel %v, want %v", name, strings.TrimSpace(out.String()), inGVisor, rt == "runsc")
			}
			if rt == "runsc" && settings["gvisor_network"] != "host" {
				t.Errorf("gVisor's network mode not recorded: %v", settings)
			}
			// The workload's limits, within what the service may give;
			// gVisor's own /proc has no /proc/self/limits (20221219).
			out.Reset()
			var errOut bytes.Buffer
			_, err = env.Run(context.Background(), e, env.Spec{Args: []string{"limits"}, Ulimits: map[string]int64{"nofile": 1000}}, &out, &errOut)
			if rt == "runsc" {
				if err == nil || !strings.Contains(errOut.String(), "/proc/self/limits: no such file") {
					t.Errorf("%s: /proc/self/limits is there (%v, %q): not gVisor's /proc", name, err, errOut.String())
				}
				// gVisor's own tmpfs at /tmp, the scratch directory (the
				// disk workloads note it); storage=bind puts a host
				// directory there instead.
				const tmpfsMagic = "1021994"
				bind := envtest.NewPrepared(t, Environments(), name+"+storage=bind", e.Options()).(*podmanEnv)
				t.Cleanup(func() { _ = bind.Close(context.Background()) }) // before e's: the last close stops the service
				for _, v := range []struct {
					e    env.Environment
					want bool
				}{{e, true}, {bind, false}} {
					out.Reset()
					if _, err := env.Run(context.Background(), v.e, env.Spec{Args: []string{"fstype", "/tmp"}}, &out, os.Stderr); err != nil {
						t.Fatalf("%s: %v", v.e.Name(), err)
					}
					if got := strings.TrimSpace(out.String()) == tmpfsMagic; got != v.want {
						t.Errorf("%s: /tmp is filesystem %s; tmpfs %v, want %v", v.e.Name(), strings.TrimSpace(out.String()), got, v.want)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("%s with a nofile limit: %v", name, err)
			}
			if !strings.HasPrefix(out.String(), "nofile 1000 ") {
				t.Errorf("%s: limits %q, want nofile 1000", name, out.String())
			}
		})
	}
	t.Run("a real-time workload is refused in gVisor before it starts", func(t *testing.T) {
		testenv.SkipShort(t, "Podman")
		testenv.RequireTool(t, "podman", "podman")
		testenv.RequireTool(t, "runsc", "runsc")
		e := requirePodman(t, "podman-bridge+runtime=runsc")
		_, err := env.Run(context.Background(), e, env.Spec{Args: []string{"lines", "1"}, CapAdd: []string{"SYS_NICE"}, CPURealtimeRuntimeUs: 950000}, os.Stdout, os.Stderr)
		if err == nil || !strings.Contains(err.Error(), "no real-time scheduling") {
			t.Errorf("a real-time spec in runsc: %v; want it refused", err)
		}
	})
}
