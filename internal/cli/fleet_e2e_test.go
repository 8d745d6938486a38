package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/wire"
)

// testDevice is one device of the test fleet: a network namespace with its
// own address and sshd, reached over a veth pair from this namespace.
type testDevice struct {
	name    string
	wire    *wire.Wire
	noSSH   bool     // no sshd: an unreachable device
	extra   []string // its sshd_config's own lines
	sshd    *exec.Cmd
	sshdLog *os.File
}

// requireFleet skips unless this process can make namespaces and has sshd,
// ssh-keygen and ansible-playbook, except in CI (CI=true), where it fails.
func requireFleet(t *testing.T) {
	t.Helper()
	var missing []string
	for _, p := range []string{"ip", "ssh", "ssh-keygen", "ansible-playbook", "/usr/sbin/sshd"} {
		if _, err := exec.LookPath(p); err != nil {
			missing = append(missing, p)
		}
	}
	if os.Geteuid() != 0 {
		missing = append(missing, "root (for ip netns)")
	}
	if len(missing) > 0 {
		msg := "the fleet test needs " + strings.Join(missing, ", ") + " (Debian: iproute2 openssh-server openssh-client ansible-core)"
		testenv.Missing(t, "%s", msg)
	}
}

func mustRun(t *testing.T, name string, args ...string) {
	t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// startDevice makes a namespace and, unless noSSH, starts an sshd in it
// that lets root in with the client key only. extraConfig lines go into its
// sshd_config (SetEnv DOCKER_HOST=... to take Docker away, say). The
// caller stops it (stop: kills every process in the namespace and removes
// it with its veth pair).
func startDevice(t *testing.T, base, name, clientPub string, noSSH bool, extraConfig ...string) *testDevice {
	t.Helper()
	ctx := context.Background()
	w, err := wire.Create(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	d := &testDevice{name: name, wire: w, noSSH: noSSH, extra: extraConfig}
	if noSSH {
		return d
	}
	d.startSSHD(t, base, clientPub)
	return d
}

// ready makes the shared device as a test expects to find it: its sshd
// listening (restarted when an earlier test dropped the device) and no
// process of an earlier test left in its namespace.
func (d *testDevice) ready(t *testing.T, base, clientPub string) {
	t.Helper()
	stray := false
	for _, pid := range d.pids() {
		if d.sshd == nil || d.sshd.Process == nil || pid != d.sshd.Process.Pid {
			stray = true
		}
	}
	if stray {
		d.drop()
	}
	if !d.noSSH && d.sshd == nil {
		d.startSSHD(t, base, clientPub)
	}
}

// startSSHD starts (or restarts) the device's sshd, with a new host key
// written to base/known_hosts.
func (d *testDevice) startSSHD(t *testing.T, base, clientPub string) {
	t.Helper()
	extraConfig := d.extra
	name, w := d.name, d.wire
	var err error
	cfgDir := filepath.Join(base, "sshd-"+name)
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	hostKey := filepath.Join(cfgDir, "host_ed25519")
	_ = os.Remove(hostKey)
	_ = os.Remove(hostKey + ".pub")
	mustRun(t, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", hostKey)
	testenv.WriteFile(t, filepath.Join(cfgDir, "authorized_keys"), []byte(clientPub), 0o600)
	// A login shell that runs `pyenv init` (root's ~/.bashrc on some
	// machines, CI's among them) rehashes under a lock file; a session the
	// drop test cuts mid-rehash leaves the lock behind, and pyenv makes every
	// later session wait 60 s for it. One second is enough here. sshd takes
	// the variables of one SetEnv line, so a device's own go on it.
	setEnv := "SetEnv PYENV_REHASH_TIMEOUT=1"
	var extra []string
	for _, line := range extraConfig {
		if vars, ok := strings.CutPrefix(line, "SetEnv "); ok {
			setEnv += " " + vars
			continue
		}
		extra = append(extra, line)
	}
	// StrictModes would refuse the keys: they live under /tmp, which anyone
	// may write to. The directory itself is 0700 and root's.
	cfg := strings.Join(append([]string{
		setEnv,
		"ListenAddress " + w.ClientAddr.String() + ":22",
		"HostKey " + hostKey,
		"PidFile " + filepath.Join(cfgDir, "sshd.pid"),
		"AuthorizedKeysFile " + filepath.Join(cfgDir, "authorized_keys"),
		"PermitRootLogin prohibit-password",
		"PasswordAuthentication no",
		"KbdInteractiveAuthentication no",
		"UsePAM no",
		"StrictModes no",
		"Subsystem sftp internal-sftp",
	}, extra...), "\n") + "\n"
	cfgFile := filepath.Join(cfgDir, "sshd_config")
	testenv.WriteFile(t, cfgFile, []byte(cfg), 0o600)
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil { // sshd's privilege separation directory
		t.Fatal(err)
	}
	if d.sshdLog, err = os.Create(filepath.Join(cfgDir, "sshd.log")); err != nil {
		t.Fatal(err)
	}
	d.sshd = exec.Command("ip", "netns", "exec", w.Namespace, "/usr/sbin/sshd", "-D", "-e", "-f", cfgFile)
	d.sshd.Stdout, d.sshd.Stderr = d.sshdLog, d.sshdLog
	ownGroup(d.sshd)
	if err := d.sshd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait for sshd to listen (from this namespace, over the veth pair).
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", w.ClientAddr.String()+":22", time.Second)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(d.sshdLog.Name())
			t.Fatalf("sshd of %s does not listen on %s:22: %v\n%s", name, w.ClientAddr, err, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	pub, err := os.ReadFile(hostKey + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(base, "known_hosts"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %s", w.ClientAddr, pub)
}

// stop kills every process in the device's namespace (sshd and whatever
// a session left) and removes the namespace and its veth pair.
func (d *testDevice) stop() error {
	d.drop()
	return d.wire.Remove(context.Background())
}

// drop kills every process in the device's namespace, as a device that
// loses power would lose them: sshd, the study, its workers.
func (d *testDevice) drop() {
	if d.sshd != nil && d.sshd.Process != nil {
		killGroup(d.sshd)
		_ = d.sshd.Wait()
	}
	for _, pid := range d.pids() {
		if pid > 1 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	if d.sshdLog != nil {
		d.sshdLog.Close()
	}
	d.sshd, d.sshdLog = nil, nil
}

// pids are the processes in the device's namespace (ip netns pids); none
// when it cannot be listed.
func (d *testDevice) pids() []int {
	out, err := exec.Command("ip", "netns", "pids", d.wire.Namespace).Output()
	if err != nil {
		return nil
	}
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestFleetOverSSH runs a study with `boxtax fleet run` (Ansible over SSH)
// on devices that are network namespaces with their own sshd: three run it
// (one without Docker: its container cells are left out; one the arm64
// binary under qemu-user when this kernel has the binfmt handler), one
// answers no SSH (unreachable), one has too little disk (a clear failure).
// The merged database answers report --by host and analyze with the host
// factor. Then one device drops mid-study and is resumed on its own. The
// devices are the package's shared ones (fleetDevices), gone with their
// daemons when its tests end.
func TestFleetOverSSH(t *testing.T) {
	requireFleet(t)
	t.Parallel() // beside the fault tests of fleets, on devices of its own
	testenv.RequireDocker(t)
	fl := newTestFleet(t)
	base, pub, dist := fl.base, fl.pub, fl.dist
	var devices []*testDevice
	for _, name := range []string{"dev-a", "dev-b", "dev-c", "dev-full", "dev-gone"} {
		devices = append(devices, fl.device(t, name))
	}
	vars := map[string]string{"dev-full": "boxtax_min_free_mb=999999999"}
	want := map[string]string{"dev-a": "ok", "dev-b": "ok", "dev-c": "ok", "dev-full": "failed", "dev-gone": "unreachable"}
	if armRuns() {
		arm, err := testenv.Boxtax("arm64")
		if err != nil {
			t.Fatal(err)
		}
		copyExecutable(t, arm, filepath.Join(dist, "boxtax-linux-arm64"))
		devices = append(devices, fl.device(t, "dev-arm"))
		vars["dev-arm"] = "boxtax_arch=arm64" // an x86_64 machine that runs the arm64 binary under qemu-user
		want["dev-arm"] = "ok"
	} else {
		t.Log("no binfmt handler for arm64 here (/proc/sys/fs/binfmt_misc/qemu-aarch64): no device runs the arm64 binary")
	}
	invPath := fl.inventory(t, devices, vars)
	ctx := fl.context(t)
	work := filepath.Join(base, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res := fleetRun(ctx, fl, work, testdata(t, "fleet.yaml"), "-i", invPath, "--dist", dist, "--settle", "0", "--monitor-interval", "0", "--seed", "5")
	t.Logf("fleet run took %s", time.Since(start).Round(time.Second))
	if os.Getenv("BOXTAX_FLEET_TEST_LOG") != "" {
		_ = os.WriteFile(os.Getenv("BOXTAX_FLEET_TEST_LOG"), []byte(res.stderr), 0o644)
	}
	if res.code != ExitRunsFailed { // dev-gone and dev-full cannot finish
		t.Fatalf("fleet run: exit %d, want %d (a device unreachable)\nstdout:\n%s\nstderr:\n%s", res.code, ExitRunsFailed, res.stdout, res.stderr)
	}
	t.Logf("fleet summary:\n%s", res.stdout)
	got := fleetStatuses(res.stdout)
	for dev, w := range want {
		if got[dev].status != w {
			t.Errorf("%s: status %q, want %q (%s)", dev, got[dev].status, w, got[dev].line)
		}
	}
	// Quiet by default (issue 27 item 7): a line a device as it moves on,
	// Ansible's whole output kept in the results directory.
	for _, bad := range []string{"TASK [", "PLAY RECAP", "ok: [dev-a]"} {
		if strings.Contains(res.stderr, bad) {
			t.Errorf("fleet run streams Ansible's output (%q) without --verbose:\n%s", bad, res.stderr)
		}
	}
	ansibleLog := filepath.Join(work, "results", "ansible.log")
	for _, line := range []string{"dev-a: connected\n", "dev-a: running the study\n", "dev-a: done\n", "dev-gone: unreachable: ", "dev-full: failed at ", "the playbook's whole log: " + ansibleLog} {
		if !strings.Contains(res.stderr, line) {
			t.Errorf("fleet run does not say %q:\n%s", line, res.stderr)
		}
	}
	if b, err := os.ReadFile(ansibleLog); err != nil || !strings.Contains(string(b), "PLAY RECAP") || !strings.Contains(string(b), "TASK [") {
		t.Errorf("the playbook's log %s lacks Ansible's output: %v\n%.2000s", ansibleLog, err, b)
	}
	// dev-gone: ssh's own reason, which Ansible words as the refused
	// connection or, when the refusal comes mid-handshake, as a broken pipe
	// (a CI run saw the second).
	for dev, texts := range map[string][]string{"dev-b": {"docker-host unavailable"}, "dev-full": {"MB free"}, "dev-gone": {"Connection refused", "Broken pipe"}} {
		if !slices.ContainsFunc(texts, func(text string) bool { return strings.Contains(got[dev].line, text) }) {
			t.Errorf("%s: the summary should say %q: %s", dev, strings.Join(texts, `" or "`), got[dev].line)
		}
	}
	db := filepath.Join(work, "fleet.db")
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("no merged database: %v\n%s", err, res.stderr)
	}
	for dev, w := range want {
		_, err := os.Stat(filepath.Join(work, "results", dev+".db"))
		if (err == nil) != (w == "ok") {
			t.Errorf("%s (%s): fetched database: %v", dev, w, err)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(work, "results", "*.part")); len(m) > 0 {
		t.Errorf("half-copied files left: %v", m)
	}
	fleetChecks(t, db)

	// Merging the fetched files again adds nothing.
	again := runIn(t, "", "merge", db, filepath.Join(work, "results", "dev-a.db"), filepath.Join(work, "results", "dev-b.db"))
	if again.code != ExitOK || strings.Contains(again.stderr, "added") || strings.Count(again.stderr, "skipped") != 2 {
		t.Errorf("merging again: exit %d\n%s", again.code, again.stderr)
	}

	t.Run("a device drops mid-study and is resumed", func(t *testing.T) {
		devC := devices[2]
		slow := filepath.Join(base, "slow.yaml")
		testenv.WriteFile(t, slow, []byte("name: slow\nrepetitions: 6\nwarmup: 0\nenvs: [native]\nworkloads:\n  - name: cpu.prime\n    params: {duration: 700ms}\n"), 0o644)
		done := make(chan result, 1)
		go func() {
			done <- fleetRun(ctx, fl, work, slow, "-i", invPath, "--limit", "dev-c", "--dist", dist, "--settle", "0", "--monitor-interval", "0")
		}()
		remoteDB := filepath.Join(fl.dir(devC), "dev-c.db")
		if !waitForRuns(remoteDB, "slow", 2, 3*time.Minute) {
			t.Fatalf("the slow study did not get going on dev-c:\n%s", (<-done).stderr)
		}
		devC.drop() // power gone: sshd, the study and its worker killed
		first := <-done
		if st := fleetStatuses(first.stdout)["dev-c"]; first.code == ExitOK || st.status != "unreachable" || !strings.Contains(st.line, "--resume") {
			tail := first.stderr[max(0, len(first.stderr)-3000):]
			t.Errorf("fleet run with dev-c dropping: exit %d, want dev-c unreachable with a hint to resume\n%s\n%s", first.code, first.stdout, tail)
		}
		t.Logf("dev-c dropped:\n%s", first.stdout)
		devC.startSSHD(t, fl.hosts, pub)
		resumed := fleetRun(ctx, fl, work, "--resume", "-i", invPath, "--limit", "dev-c", "--dist", dist)
		if resumed.code != ExitOK {
			t.Fatalf("fleet run --resume --limit dev-c: exit %d\n%s\n%s", resumed.code, resumed.stdout, resumed.stderr)
		}
		if !strings.Contains(resumed.stderr, `study 2 "slow"`) || !regexpMatch(`added study 2 "slow" \(finished, host dev-c\)`, resumed.stderr) {
			t.Errorf("the resumed study was not merged:\n%s", resumed.stderr)
		}
		// Every run done, none failed: a run the host's load marked
		// disturbed (the resumed runs wait for quiet, at --settle's
		// default) is done, and not counted "ok" (a CI run here had 4 of
		// 6 so), which this test does not judge.
		rep := runIn(t, "", "report", "--db", db, "--format", "json")
		var doc reportJSON
		err := json.Unmarshal([]byte(rep.stdout), &doc)
		if r := doc.Runs; rep.code != ExitOK || err != nil || r.Total != 6 || r.Failed != 0 || r.Pending != 0 || r.OK < 1 {
			text := runIn(t, "", "report", "--db", db)
			t.Errorf("the resumed study in fleet.db: exit %d, %v, runs %+v, want 6 done, none failed or pending\n%s", rep.code, err, r, text.stdout)
		}
	})
}

// armRuns tells whether this kernel runs arm64 binaries (qemu-user through
// binfmt_misc).
func armRuns() bool {
	b, err := os.ReadFile("/proc/sys/fs/binfmt_misc/qemu-aarch64")
	return err == nil && strings.HasPrefix(string(b), "enabled")
}

type fleetLine struct{ status, line string }

// fleetStatuses reads the per-device summary of fleet run.
func fleetStatuses(out string) map[string]fleetLine {
	m := map[string]fleetLine{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] != "device" {
			m[f[0]] = fleetLine{f[2], line}
		}
	}
	return m
}

// waitForRuns waits until the latest study named name in the database at
// path has n runs done.
func waitForRuns(path, name string, n int, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		time.Sleep(300 * time.Millisecond)
		if st, runs := latestStudyRuns(path); st.Name == name && countRuns(runs, runDone) >= n {
			return true
		}
	}
	return false
}

func regexpMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }

// fleetChecks reads the merged database of the fleet test: one study per
// device, the device as a dimension of every view.
func fleetChecks(t *testing.T, db string) {
	t.Helper()
	rep := runIn(t, "", "report", "--db", db, "--by", "host")
	if rep.code != ExitOK {
		t.Fatalf("report --by host: exit %d\n%s", rep.code, rep.stderr)
	}
	t.Logf("report --by host:\n%s", rep.stdout)
	stdoutSays(t, rep, "dev-a", "dev-b", "dev-c", "cpu.prime", "unavailable")
	an := runIn(t, "", "analyze", "--db", db, "--unit", "run")
	if an.code != ExitOK {
		t.Fatalf("analyze: exit %d\n%s\n%s", an.code, an.stdout, an.stderr)
	}
	t.Logf("analyze:\n%s", an.stdout)
	if !strings.Contains(an.stdout, "host") {
		t.Errorf("analyze has no host factor:\n%s", an.stdout)
	}
	// dev-a and dev-c ran both environments: the device x environment
	// interaction can be estimated from them.
	ids := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^  (dev-[a-z]+): study (\d+) `).FindAllStringSubmatch(rep.stdout, -1) {
		ids[m[1]] = m[2]
	}
	crossed := runIn(t, "", "analyze", "--db", db, "--unit", "run", "--study", ids["dev-a"]+","+ids["dev-c"])
	if crossed.code != ExitOK || !strings.Contains(crossed.stdout, "env:host") {
		t.Errorf("analyze of dev-a and dev-c: exit %d, want an env:host term\n%s\n%s", crossed.code, crossed.stdout, crossed.stderr)
	}
	html := runIn(t, "", "report", "--db", db, "--by", "host", "--format", "html")
	if html.code != ExitOK || !strings.Contains(html.stdout, "<svg") || !strings.Contains(html.stdout, "by device") {
		t.Errorf("HTML by host: exit %d, want the per-device plot\n%.500s", html.code, html.stdout)
	}
	csv := runIn(t, "", "report", "--db", db, "--by", "host", "--format", "csv")
	if csv.code != ExitOK || !strings.HasPrefix(csv.stdout, "study_id,host,") {
		t.Errorf("tidy CSV of the fleet: exit %d\n%.300s", csv.code, csv.stdout)
	}
	for _, d := range []string{"dev-a", "dev-b", "dev-c"} {
		if !strings.Contains(csv.stdout, ","+d+",") {
			t.Errorf("the CSV has no row of %s", d)
		}
	}
	cmp := runIn(t, "", "compare", db)
	if cmp.code != ExitOK || !strings.Contains(cmp.stdout, "dev-b") {
		t.Errorf("compare across the hosts of one database: exit %d\n%s\n%s", cmp.code, cmp.stdout, cmp.stderr)
	}
}

// fleetRun runs `boxtax fleet run` in-process with a context, its results
// and merged database in work, Ansible in the fleet's environment (no
// chdir, no process environment: it runs beside other fleet tests).
func fleetRun(ctx context.Context, fl *testFleet, work string, args ...string) result {
	var out, errb bytes.Buffer
	g := testGlobals(&out, &errb)
	g.Environ = func() []string { return fl.env }
	args = append([]string{"fleet", "run", "--results", filepath.Join(work, "results"), "--out", filepath.Join(work, "fleet.db")}, args...)
	return result{Execute(ctx, g, undisturbed(args)), out.String(), errb.String()}
}
