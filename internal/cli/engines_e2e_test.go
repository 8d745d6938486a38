package cli

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/docker/enginetest"
)

// The engine here and a stand-in for Docker Engine 29 (API 1.44 to 1.52
// only, imitated in front of the engine here) both give available Docker
// environments, and sysinfo names the engine, its version and the API
// version spoken.
func TestEnginesInListAndSysinfo(t *testing.T) {
	up, upAPI := enginetest.RealDaemon(t)
	dockerOnly(t)
	real := docker.NewClientFor(up)
	here, err := real.Engine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s29 := enginetest.Start(t, enginetest.Docker29, up, upAPI)
	tests := []struct {
		name    string
		host    string // DOCKER_HOST; empty: as the environment has it
		sysinfo []string
	}{
		{"the engine here", "", []string{"docker:", here.String(), "API " + here.APIVersion}},
		{"stand-in Docker Engine 29", s29.Host, []string{"docker:", "Docker Engine 29.0.0 at " + s29.Host, "API 1.52 (daemon serves 1.44-1.52)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.host != "" {
				t.Setenv("DOCKER_HOST", tt.host)
			}
			dir := t.TempDir()
			res := runIn(t, dir, "list", "envs")
			for _, env := range []string{"docker-bridge", "docker-host"} {
				if !regexp.MustCompile(`(?m)^` + env + `\s+yes\s`).MatchString(res.stdout) {
					t.Errorf("list envs: %s is not available:\n%s%s", env, res.stdout, res.stderr)
				}
			}
			res = runIn(t, dir, "sysinfo")
			for _, w := range tt.sysinfo {
				if !strings.Contains(res.stdout, w) {
					t.Errorf("sysinfo lacks %q:\n%s", w, res.stdout)
				}
			}
		})
	}
}

// A real container runs behind the stand-in Engine 29, and the report names
// the engine beside the environment.
func TestStudyThroughEngine29(t *testing.T) {
	up, upAPI := enginetest.RealDaemon(t)
	s29 := enginetest.Start(t, enginetest.Docker29, up, upAPI)
	t.Setenv("DOCKER_HOST", s29.Host)
	dir := t.TempDir()
	res := runIn(t, dir, "run", testdata(t, "engines.yaml"), "--seed", "3", "--settle", "0")
	if res.code != ExitOK {
		t.Fatalf("run through Engine 29: exit %d\nstderr: %s\nstdout: %s", res.code, res.stderr, res.stdout)
	}
	stdoutSays(t, res, "engines: docker-bridge: Docker Engine 29.0.0, API 1.52", "cpu.prime", "docker-bridge")
	if left := containersOf(t, docker.NewClientFor(up), os.Getpid()); len(left) > 0 {
		t.Errorf("%d containers left behind", len(left))
	}
}

// Engines with no API version in common are unavailable, with both ranges
// and what to do, in list envs, in sysinfo, and before a study starts.
func TestEnginesWithoutCommonVersion(t *testing.T) {
	up, upAPI := enginetest.RealDaemon(t)
	dockerOnly(t)
	for _, tt := range []struct {
		name   string
		engine enginetest.Engine
		want   string
	}{
		{"too old", enginetest.Docker19, "serves Engine API 1.12 to 1.40, and boxtax speaks 1.41 to 1.52: no version in common: the engine is too old"},
		{"too new", enginetest.DockerFuture, "serves Engine API 1.60 to 1.70, and boxtax speaks 1.41 to 1.52: no version in common: the engine is newer than this boxtax"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := enginetest.Start(t, tt.engine, up, upAPI)
			t.Setenv("DOCKER_HOST", s.Host)
			dir := t.TempDir()
			res := runIn(t, dir, "list", "envs")
			if !regexp.MustCompile(`(?m)^docker-bridge\s+no: docker-bridge: .*` + regexp.QuoteMeta(tt.want)).MatchString(res.stdout) {
				t.Errorf("list envs does not say %q:\n%s", tt.want, res.stdout)
			}
			res = runIn(t, dir, "sysinfo")
			if !strings.Contains(res.stdout, "unavailable: ") || !strings.Contains(res.stdout, tt.want) {
				t.Errorf("sysinfo does not say %q:\n%s", tt.want, res.stdout)
			}
			start := time.Now()
			res = runIn(t, dir, "run", testdata(t, "engines.yaml"), "--settle", "0")
			if res.code != ExitUsage || !strings.Contains(res.stderr, "environment docker-bridge is not available") || !strings.Contains(res.stderr, tt.want) {
				t.Errorf("run: exit %d, stderr:\n%s\nwant exit %d before the study starts, saying %q", res.code, res.stderr, ExitUsage, tt.want)
			}
			if took := time.Since(start); took > 20*time.Second {
				t.Errorf("run took %v to refuse, want under 20 s", took)
			}
		})
	}
}

// dockerOnly hides every program from the test (an empty PATH), those of
// the other engines (podman, lxc-execute) among them, for a test of list
// envs, sysinfo or run that is not about them: the Podman environments'
// check (boxtax starts its own Podman service, whose info asks dpkg about
// every runtime) took 10 to 30 s a command on a busy machine, most of
// these tests' time. Podman's and LXC's checks have their own tests.
func dockerOnly(t *testing.T) {
	t.Helper()
	t.Setenv("PATH", t.TempDir())
}
