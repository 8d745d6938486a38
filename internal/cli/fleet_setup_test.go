package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
)

// testFleet is what every fleet test sets up on this machine: the client's
// SSH key, the devices (shared by the package's fleet tests: sharedFleet),
// the dist directory with this build as boxtax-linux-amd64, and Ansible's
// environment (the generated known_hosts, no lingering SSH master
// processes, its temporary files in the test's directory). The fleet tests
// run side by side (t.Parallel: each waits on Ansible and SSH far more than
// it computes, and CI had them take 385 s one after the other), each on
// devices no other test uses, with Ansible's environment its own (env,
// given to fleet run through Globals.Environ: t.Setenv is process-wide).
type testFleet struct {
	base      string // the test's directory
	clientKey string // the private key Ansible logs in with
	pub       string // its public half, for the devices' authorized_keys
	dist      string
	hosts     string // the shared directory: known_hosts, each sshd's configuration
	devices   map[string]*testDevice
	env       []string // Ansible's environment for this test's fleet runs
}

// noDocker is the sshd option of dev-b: sessions there find no Docker.
const noDocker = "SetEnv DOCKER_HOST=unix:///nonexistent/docker.sock"

// The devices every fleet test uses, made once for the package (a network
// namespace, a veth pair and an sshd each cost seconds on a busy machine,
// and three tests each made their own) and removed when its tests end
// (testenv.AfterAll): dev-a, dev-b (no Docker), dev-c, dev-full, dev-gone
// (no sshd: unreachable) and dev-arm where arm64 binaries run, for
// TestFleetOverSSH; dev-kill and dev-int for the fault tests that run beside
// it (a device is one test's at a time: readying it kills what runs there).
// Each test gives every device a boxtax_dir of its own (testFleet.dir), so
// one test's databases and binaries are never another's.
var sharedFleet struct {
	sync.Mutex
	tried, made bool
	hosts       string
	key, pub    string
	devices     map[string]*testDevice
}

// fleetDevices returns the shared devices, making them on the first call;
// testFleet.device readies the one a test takes.
func fleetDevices(t *testing.T) (hosts, key, pub string, devices map[string]*testDevice) {
	t.Helper()
	sf := &sharedFleet
	sf.Lock()
	defer sf.Unlock()
	if sf.tried && !sf.made {
		t.Fatal("the shared fleet devices could not be made (see the first fleet test's failure)")
	}
	if !sf.tried {
		sf.tried = true
		dir, err := os.MkdirTemp("", "boxtax-fleet-")
		if err != nil {
			t.Fatal(err)
		}
		sf.hosts, sf.devices = dir, map[string]*testDevice{}
		devices := sf.devices
		cleanup := func() {
			for _, d := range devices {
				if err := d.stop(); err != nil {
					fmt.Fprintln(os.Stderr, "fleet devices:", err)
				}
			}
			os.RemoveAll(dir)
		}
		if !testenv.AfterAll(cleanup) {
			t.Cleanup(cleanup)
		}
		sf.key = filepath.Join(dir, "id_ed25519")
		mustRun(t, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "boxtax-fleet-test", "-f", sf.key)
		pub, err := os.ReadFile(sf.key + ".pub")
		if err != nil {
			t.Fatal(err)
		}
		sf.pub = string(pub)
		specs := []struct {
			name  string
			noSSH bool
			extra []string
		}{{"dev-a", false, nil}, {"dev-b", false, []string{noDocker}}, {"dev-c", false, nil}, {"dev-full", false, nil}, {"dev-gone", true, nil},
			{"dev-kill", false, nil}, {"dev-int", false, nil}}
		if armRuns() {
			specs = append(specs, struct {
				name  string
				noSSH bool
				extra []string
			}{"dev-arm", false, nil})
		}
		for _, s := range specs {
			sf.devices[s.name] = startDevice(t, dir, s.name, sf.pub, s.noSSH, s.extra...)
		}
		sf.made = true
	}
	return sf.hosts, sf.key, sf.pub, sf.devices
}

// newTestFleet gives the test the shared devices, its own dist and
// directory, and sets Ansible's environment for it.
func newTestFleet(t *testing.T) *testFleet {
	t.Helper()
	f := &testFleet{base: t.TempDir()}
	f.hosts, f.clientKey, f.pub, f.devices = fleetDevices(t)
	f.dist = filepath.Join(f.base, "dist")
	if err := os.MkdirAll(f.dist, 0o755); err != nil {
		t.Fatal(err)
	}
	copyExecutable(t, boxtaxBin, filepath.Join(f.dist, "boxtax-linux-amd64"))
	f.env = append(os.Environ(),
		"ANSIBLE_SSH_ARGS=-o ControlMaster=no -o UserKnownHostsFile="+filepath.Join(f.hosts, "known_hosts")+" -o StrictHostKeyChecking=yes -o ConnectTimeout=5",
		"ANSIBLE_HOST_KEY_CHECKING=True",
		"ANSIBLE_PIPELINING=True",
		"ANSIBLE_LOCAL_TEMP="+filepath.Join(f.base, "ansible-local"),
		"ANSIBLE_REMOTE_TEMP="+filepath.Join(f.base, "ansible-remote"),
		"ANSIBLE_NOCOLOR=1")
	return f
}

// device is the shared device named name, made ready for this test: SSH
// up (restarted when a test dropped it) and nothing of an earlier test
// left running in it.
func (f *testFleet) device(t *testing.T, name string) *testDevice {
	t.Helper()
	sf := &sharedFleet
	sf.Lock()
	d := f.devices[name]
	sf.Unlock()
	if d == nil {
		t.Fatalf("no fleet device %s", name)
	}
	d.ready(t, f.hosts, f.pub)
	return d
}

// dir is the device's boxtax_dir in this test: the namespaces share this
// file system, and each test has its own.
func (f *testFleet) dir(d *testDevice) string { return filepath.Join(f.base, "remote", d.name) }

// inventory writes the inventory of devices (with more host variables by
// device name) and returns its path.
func (f *testFleet) inventory(t *testing.T, devices []*testDevice, vars map[string]string) string {
	t.Helper()
	var inv strings.Builder
	inv.WriteString("[devices]\n")
	for _, d := range devices {
		fmt.Fprintf(&inv, "%s ansible_host=%s boxtax_dir=%s %s\n", d.name, d.wire.ClientAddr, f.dir(d), vars[d.name])
	}
	fmt.Fprintf(&inv, "\n[devices:vars]\nansible_user=root\nansible_ssh_private_key_file=%s\nansible_python_interpreter=/usr/bin/python3\n", f.clientKey)
	path := filepath.Join(f.base, "inventory.ini")
	testenv.WriteFile(t, path, []byte(inv.String()), 0o600)
	return path
}

// fleetRunRoom is the least time a fleet run is given before the test's
// deadline: one device runs the arm64 binary under qemu-user, and a fleet
// run took 105 s on a quiet 2-CPU VM.
const fleetRunRoom = 4 * time.Minute

// context is the fleet runs' context: it ends a minute before the test's
// deadline, so the cleanups (namespaces, sshd) still run when Ansible is
// stuck. A deadline too near for a fleet run fails the test at once, saying
// so: `go test ./internal/cli/` alone has go test's default -timeout of 10
// minutes, which the package's other tests use up (a fresh VM's run left a
// fleet test 40 s, and its devices were cut off mid-study); make test gives
// 60.
func (f *testFleet) context(t *testing.T) context.Context {
	if dl, ok := t.Deadline(); ok {
		if left := time.Until(dl) - time.Minute; left < fleetRunRoom {
			t.Fatalf("only %s left before go test's -timeout for a fleet run, which needs %s: run the package's tests as make test does (-timeout 60m)", left.Round(time.Second), fleetRunRoom)
		}
		ctx, cancel := context.WithDeadline(context.Background(), dl.Add(-time.Minute))
		t.Cleanup(cancel)
		return ctx
	}
	return context.Background()
}

// fleetDeviceWires are the namespaces and host links of the shared fleet
// devices, which stay up until the package's tests end: not left behind by
// the test that looks for leftovers after them.
func fleetDeviceWires() map[string]bool {
	sf := &sharedFleet
	sf.Lock()
	defer sf.Unlock()
	names := map[string]bool{}
	for _, d := range sf.devices {
		if d.wire != nil {
			names[d.wire.Namespace], names[d.wire.HostLink] = true, true
		}
	}
	return names
}
