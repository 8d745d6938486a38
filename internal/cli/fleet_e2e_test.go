package cli

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/wire"
)

// testDevice is one device of the test fleet: a network namespace with its
// own address and sshd, reached over a veth pair from this namespace.
type testDevice struct {
	name    string
	wire    *wire.Wire
	sshd    *exec.Cmd
	sshdLog *os.File
	dir     string // its boxtax_dir: the namespaces share this file system
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
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + ": CI must run it")
		}
		t.Skip(msg)
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
// sshd_config (SetEnv DOCKER_HOST=... to take Docker away, say). Cleanup
// kills every process in the namespace and removes it with its veth pair.
func startDevice(t *testing.T, base, name, clientPub string, noSSH bool, extraConfig ...string) *testDevice {
	t.Helper()
	ctx := context.Background()
	w, err := wire.Create(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	d := &testDevice{name: name, wire: w, dir: filepath.Join(base, "remote", name)}
	t.Cleanup(func() { d.stop(t) })
	if noSSH {
		return d
	}
	cfgDir := filepath.Join(base, "sshd-"+name)
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	hostKey := filepath.Join(cfgDir, "host_ed25519")
	mustRun(t, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", hostKey)
	if err := os.WriteFile(filepath.Join(cfgDir, "authorized_keys"), []byte(clientPub), 0o600); err != nil {
		t.Fatal(err)
	}
	// StrictModes would refuse the keys: they live under /tmp, which anyone
	// may write to. The directory itself is 0700 and root's.
	cfg := strings.Join(append([]string{
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
	}, extraConfig...), "\n") + "\n"
	cfgFile := filepath.Join(cfgDir, "sshd_config")
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil { // sshd's privilege separation directory
		t.Fatal(err)
	}
	if d.sshdLog, err = os.Create(filepath.Join(cfgDir, "sshd.log")); err != nil {
		t.Fatal(err)
	}
	d.sshd = exec.Command("ip", "netns", "exec", w.Namespace, "/usr/sbin/sshd", "-D", "-e", "-f", cfgFile)
	d.sshd.Stdout, d.sshd.Stderr = d.sshdLog, d.sshdLog
	d.sshd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
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
	return d
}

// stop kills every process in the device's namespace (sshd and whatever
// a session left) and removes the namespace and its veth pair.
func (d *testDevice) stop(t *testing.T) {
	if d.sshd != nil && d.sshd.Process != nil {
		_ = syscall.Kill(-d.sshd.Process.Pid, syscall.SIGKILL)
		_ = d.sshd.Wait()
	}
	if out, err := exec.Command("ip", "netns", "pids", d.wire.Namespace).Output(); err == nil {
		for _, f := range strings.Fields(string(out)) {
			var pid int
			if _, err := fmt.Sscan(f, &pid); err == nil && pid > 1 {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
	if d.sshdLog != nil {
		d.sshdLog.Close()
	}
	if err := d.wire.Remove(context.Background()); err != nil {
		t.Error(err)
	}
}

// TestFleetOverSSH runs a study with `boxtax fleet run` (Ansible over SSH)
// on three devices, each a network namespace with its own sshd, plus one
// that answers no SSH: the study runs on each, one device has no Docker
// (its container cells are left out), the unreachable one is reported,
// and the merged database answers report --by host and analyze with the
// host factor. The namespaces and daemons are gone afterwards.
func TestFleetOverSSH(t *testing.T) {
	requireFleet(t)
	requireDocker(t)
	base := t.TempDir()
	clientKey := filepath.Join(base, "id_ed25519")
	mustRun(t, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "boxtax-fleet-test", "-f", clientKey)
	pub, err := os.ReadFile(clientKey + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	devices := []*testDevice{
		startDevice(t, base, "dev-a", string(pub), false),
		startDevice(t, base, "dev-b", string(pub), false, "SetEnv DOCKER_HOST=unix:///nonexistent/docker.sock"),
		startDevice(t, base, "dev-c", string(pub), false),
		startDevice(t, base, "dev-gone", string(pub), true),
	}
	dist := filepath.Join(base, "dist")
	if err := os.MkdirAll(dist, 0o755); err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(boxtaxBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dist, "boxtax-linux-amd64"), bin, 0o755); err != nil {
		t.Fatal(err)
	}
	var inv strings.Builder
	inv.WriteString("[devices]\n")
	for _, d := range devices {
		fmt.Fprintf(&inv, "%s ansible_host=%s boxtax_dir=%s\n", d.name, d.wire.ClientAddr, d.dir)
	}
	fmt.Fprintf(&inv, "\n[devices:vars]\nansible_user=root\nansible_ssh_private_key_file=%s\nansible_python_interpreter=/usr/bin/python3\n", clientKey)
	invPath := filepath.Join(base, "inventory.ini")
	if err := os.WriteFile(invPath, []byte(inv.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	// Ansible: the generated known_hosts, no lingering SSH master processes,
	// its temporary files in the test's directory.
	t.Setenv("ANSIBLE_SSH_ARGS", "-o ControlMaster=no -o UserKnownHostsFile="+filepath.Join(base, "known_hosts")+" -o StrictHostKeyChecking=yes -o ConnectTimeout=5")
	t.Setenv("ANSIBLE_HOST_KEY_CHECKING", "True")
	t.Setenv("ANSIBLE_PIPELINING", "True")
	t.Setenv("ANSIBLE_LOCAL_TEMP", filepath.Join(base, "ansible-local"))
	t.Setenv("ANSIBLE_REMOTE_TEMP", filepath.Join(base, "ansible-remote"))
	t.Setenv("ANSIBLE_NOCOLOR", "1")

	work := filepath.Join(base, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res := runIn(t, work, "fleet", "run", testdata(t, "fleet.yaml"), "-i", invPath, "--dist", dist, "--settle", "0", "--monitor-interval", "0", "--seed", "5")
	t.Logf("fleet run took %s", time.Since(start).Round(time.Second))
	if os.Getenv("BOXTAX_FLEET_TEST_LOG") != "" {
		_ = os.WriteFile(os.Getenv("BOXTAX_FLEET_TEST_LOG"), []byte(res.stderr), 0o644)
	}
	if res.code != ExitRunsFailed { // dev-gone cannot finish
		t.Fatalf("fleet run: exit %d, want %d (one device unreachable)\nstdout:\n%s\nstderr:\n%s", res.code, ExitRunsFailed, res.stdout, res.stderr)
	}
	t.Logf("fleet summary:\n%s", res.stdout)
	for _, want := range []string{"dev-a  ", "dev-gone", "unreachable"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("the summary lacks %q:\n%s", want, res.stdout)
		}
	}
	for _, line := range strings.Split(res.stdout, "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		want := map[string]string{"dev-a": "ok", "dev-b": "ok", "dev-c": "ok", "dev-gone": "unreachable"}[f[0]]
		if want != "" && f[2] != want {
			t.Errorf("%s: status %s, want %s (%s)", f[0], f[2], want, line)
		}
		if f[0] == "dev-b" && !strings.Contains(line, "docker-host") {
			t.Errorf("dev-b ran without Docker, the summary should say docker-host was unavailable: %s", line)
		}
	}
	db := filepath.Join(work, "fleet.db")
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("no merged database: %v\n%s", err, res.stderr)
	}
	for _, d := range devices[:3] {
		if _, err := os.Stat(filepath.Join(work, "results", d.name+".db")); err != nil {
			t.Errorf("no fetched database for %s: %v", d.name, err)
		}
		if m, _ := filepath.Glob(filepath.Join(work, "results", "*.part")); len(m) > 0 {
			t.Errorf("half-copied files left: %v", m)
		}
	}
	fleetChecks(t, work, db)

	// Merging the fetched files again adds nothing.
	again := runIn(t, work, "merge", "fleet.db", "results/dev-a.db", "results/dev-b.db")
	if again.code != ExitOK || strings.Contains(again.stderr, "added") || strings.Count(again.stderr, "skipped") != 2 {
		t.Errorf("merging again: exit %d\n%s", again.code, again.stderr)
	}
}

// fleetChecks reads the merged database of the fleet test: one study per
// device, the device as a dimension of every view.
func fleetChecks(t *testing.T, work, db string) {
	t.Helper()
	rep := runIn(t, work, "report", "--db", db, "--by", "host")
	if rep.code != ExitOK {
		t.Fatalf("report --by host: exit %d\n%s", rep.code, rep.stderr)
	}
	t.Logf("report --by host:\n%s", rep.stdout)
	for _, want := range []string{"dev-a", "dev-b", "dev-c", "cpu.prime", "unavailable"} {
		if !strings.Contains(rep.stdout, want) {
			t.Errorf("report --by host lacks %q", want)
		}
	}
	an := runIn(t, work, "analyze", "--db", db, "--unit", "run")
	if an.code != ExitOK {
		t.Fatalf("analyze: exit %d\n%s\n%s", an.code, an.stdout, an.stderr)
	}
	t.Logf("analyze:\n%s", an.stdout)
	if !strings.Contains(an.stdout, "host") {
		t.Errorf("analyze has no host factor:\n%s", an.stdout)
	}
	// dev-a and dev-c ran both environments: the device x environment
	// interaction can be estimated from them (studies 1 and 3: merged in
	// the order of the summary, sorted by device).
	crossed := runIn(t, work, "analyze", "--db", db, "--unit", "run", "--study", "1,3")
	if crossed.code != ExitOK || !strings.Contains(crossed.stdout, "env:host") {
		t.Errorf("analyze of dev-a and dev-c: exit %d, want an env:host term\n%s\n%s", crossed.code, crossed.stdout, crossed.stderr)
	}
	html := runIn(t, work, "report", "--db", db, "--by", "host", "--format", "html")
	if html.code != ExitOK || !strings.Contains(html.stdout, "<svg") || !strings.Contains(html.stdout, "by device") {
		t.Errorf("HTML by host: exit %d, want the per-device plot\n%.500s", html.code, html.stdout)
	}
	csv := runIn(t, work, "report", "--db", db, "--by", "host", "--format", "csv")
	if csv.code != ExitOK || !strings.HasPrefix(csv.stdout, "study_id,host,") {
		t.Errorf("tidy CSV of the fleet: exit %d\n%.300s", csv.code, csv.stdout)
	}
	for _, d := range []string{"dev-a", "dev-b", "dev-c"} {
		if !strings.Contains(csv.stdout, ","+d+",") {
			t.Errorf("the CSV has no row of %s", d)
		}
	}
	cmp := runIn(t, work, "compare", db)
	if cmp.code != ExitOK || !strings.Contains(cmp.stdout, "dev-b") {
		t.Errorf("compare across the hosts of one database: exit %d\n%s\n%s", cmp.code, cmp.stdout, cmp.stderr)
	}
}
