package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// TestRunCmdNativeAndInDocker measures a real program from Debian's
// packages (sysbench, with its LuaJIT library) natively and in a container
// made from the host's files, with a figure by regex and the adapter's.
func TestRunCmdNativeAndInDocker(t *testing.T) {
	testenv.RequireDocker(t)
	testenv.RequireTool(t, "sysbench", "sysbench")
	dir := t.TempDir()
	res := runOK(t, dir, "run", "--cmd", "sysbench cpu --time=1 run", "--metric", `evps:events/s=events per second:\s*([0-9.]+)`,
		"--envs", "native,docker-bridge", "--reps", "2", "--warmup", "0", "--settle", "0", "--monitor-interval", "0")
	stdoutSays(t, res, "events/s", "wall s", "latency avg ms", "docker-bridge")
	st, runs, all := testenv.Stored(t, filepath.Join(dir, "boxtax.db"))
	if !strings.Contains(st.SpecYAML, "sysbench cpu --time=1 run") {
		t.Errorf("the stored study does not hold the command:\n%s", st.SpecYAML)
	}
	perEnv := map[string]int{}
	for _, r := range runs {
		if r.Warmup {
			continue
		}
		if r.Status != store.RunOK {
			t.Errorf("run %d in %s: %s %s", r.Seq, r.Env, r.Status, r.Reason)
			continue
		}
		got := map[string]float64{}
		for _, s := range all {
			if s.RunID == r.ID && s.Instance == 0 {
				got[s.Metric] = s.Value
			}
		}
		// the adapter's and the regex's figure read the same line
		if got["events_per_s"] <= 0 || got["evps"] != got["events_per_s"] || got["wall_s"] < 0.9 || got["maxrss_mib"] <= 0 {
			t.Errorf("run %d in %s: samples %v", r.Seq, r.Env, got)
		}
		perEnv[r.Env]++
	}
	if perEnv["native"] != 2 || perEnv["docker-bridge"] != 2 {
		t.Errorf("runs per environment %v", perEnv)
	}
}

// TestRunCmdFailuresAndBadInput: a command failing in the container is a
// failed run with its status and stderr (exit 3); bad flags are usage errors.
func TestRunCmdFailuresAndBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--metric", "x=([0-9]+)"}, "go with --cmd"},
		{[]string{"--cmd", "no-such-program-of-boxtax --once"}, `program "no-such-program-of-boxtax" is not on this host: not found`},
		{[]string{"--cmd", "true", "--metric", "x=("}, "regex"},
		{[]string{"--cmd", "sh -c 'unclosed"}, "unclosed quote"},
		{[]string{"--cmd", "true", "--parse", "iozone"}, "valid: auto, none, ab, cyclictest, fio, iperf3, mbw, stress-ng, sysbench, wrk"},
		{[]string{"quick", "--cmd", "true"}, "give no study"},
	} {
		res := runIn(t, dir, append([]string{"run"}, tc.args...)...)
		if res.code != ExitUsage || !strings.Contains(res.stderr, tc.want) {
			t.Errorf("run %q: exit %d, want %d with %q\n%s", tc.args, res.code, ExitUsage, tc.want, res.stderr)
		}
	}
	testenv.RequireDocker(t)
	// A command that fails natively fails its check run there, before the
	// study is stored (issue 27): exit 3 with its status and stderr.
	res := runIn(t, dir, "run", "--cmd", "sh -c 'echo no sensor found >&2; exit 4'", "--envs", "native,docker-host",
		"--reps", "1", "--warmup", "0", "--settle", "0", "--monitor-interval", "0", "--db", "fail.db")
	if res.code != ExitRunsFailed {
		t.Fatalf("exit %d, want %d\n%s", res.code, ExitRunsFailed, res.stderr)
	}
	stderrSays(t, res, "the command failed in native before the measured runs", "exited with status 4", "no sensor found",
		"it fails on this host itself", "nothing to compare")
}

// TestRunCmdServerAcrossTheBridge: the user's server (iperf3's) in a
// container on Docker's bridge, their client on the host through the
// published port, and natively; the client's figures are the run's.
func TestRunCmdServerAcrossTheBridge(t *testing.T) {
	testenv.RequireDocker(t)
	testenv.RequireTool(t, "iperf3", "iperf3")
	dir := t.TempDir()
	study := filepath.Join(dir, "srv.yaml")
	spec := `name: my-server
repetitions: 2
warmup: 0
envs: [native, docker-bridge]
workloads:
  - name: cmd.server
    params:
      server: iperf3 -s --forceflush -B {host} -p {port}
      ready: Server listening
      client: iperf3 -c {host} -p {port} -t 1
`
	testenv.WriteFile(t, study, []byte(spec), 0o644)
	res := runOK(t, dir, "run", study, "--settle", "0", "--monitor-interval", "0")
	if !strings.Contains(res.stdout, "received Mbit/s") || !strings.Contains(res.stdout, "docker-bridge") {
		t.Errorf("table:\n%s", res.stdout)
	}
	if n := okRuns(t, filepath.Join(dir, "boxtax.db")); n != 4 {
		t.Errorf("%d ok runs, want 4", n)
	}
	// The docker-bridge client reached the container through the bridge's
	// gateway (DNAT), the native one over loopback.
	runs := latestRuns(t, filepath.Join(dir, "boxtax.db"))
	for _, r := range runs {
		client, server := r.Notes["command"], r.Notes["server.command"]
		if strings.Contains(client, " -c 127.0.0.1 ") != (r.Env == "native") || !strings.Contains(server, "iperf3 -s") {
			t.Errorf("run %d in %s: client %q, server %q", r.Seq, r.Env, client, server)
		}
	}
}

// TestRunCmdInTheUsersImage: --image runs the command in a local image of
// the user's (here one made by image from-host, with /bin/sh in it), the
// boxtax binary mounted in; a missing image is refused before the first
// run (issue 25 item 14).
func TestRunCmdInTheUsersImage(t *testing.T) {
	c := testenv.RequireDocker(t)
	dir := t.TempDir()
	tag := "boxtax-test-user-image:" + strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-"))
	res := runOK(t, dir, "image", "from-host", "--tag", tag, "/bin/sh", "/bin/echo")
	removeImagesAtEnd(t, c, tag)
	res = runOK(t, dir, "run", "--cmd", "sh -c 'echo 7 frames'", "--image", tag, "--metric", "frames=([0-9]+) frames",
		"--envs", "native,docker-bridge", "--reps", "1", "--warmup", "0", "--settle", "0", "--monitor-interval", "0")
	runs := latestRuns(t, filepath.Join(dir, "boxtax.db"))
	for _, r := range runs {
		if r.Env == "docker-bridge" && r.Settings["image"] != tag {
			t.Errorf("the container ran image %q, want %q", r.Settings["image"], tag)
		}
	}
	res = runIn(t, dir, "run", "--cmd", "sh -c 'echo 7 frames'", "--image", "boxtax-no-such-image:1", "--envs", "native,docker-bridge",
		"--reps", "1", "--warmup", "0", "--settle", "0", "--monitor-interval", "0", "--db", "missing.db")
	if res.code != ExitUsage || !strings.Contains(res.stderr, "image boxtax-no-such-image:1 is n") || !strings.Contains(res.stderr, "build, load or pull it") {
		t.Errorf("a missing image: exit %d\n%s", res.code, res.stderr)
	}
}
