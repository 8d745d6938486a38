package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
)

// testFleet is what every fleet test sets up on this machine: the client's
// SSH key, the dist directory with this build as boxtax-linux-amd64, and
// Ansible's environment (the generated known_hosts, no lingering SSH master
// processes, its temporary files in the test's directory).
type testFleet struct {
	base      string // the test's directory
	clientKey string // the private key Ansible logs in with
	pub       string // its public half, for the devices' authorized_keys
	dist      string
}

// newTestFleet makes the key and dist and sets Ansible's environment for
// the test.
func newTestFleet(t *testing.T) *testFleet {
	t.Helper()
	f := &testFleet{base: t.TempDir()}
	f.clientKey = filepath.Join(f.base, "id_ed25519")
	mustRun(t, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "boxtax-fleet-test", "-f", f.clientKey)
	pub, err := os.ReadFile(f.clientKey + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	f.pub = string(pub)
	f.dist = filepath.Join(f.base, "dist")
	if err := os.MkdirAll(f.dist, 0o755); err != nil {
		t.Fatal(err)
	}
	copyExecutable(t, boxtaxBin, filepath.Join(f.dist, "boxtax-linux-amd64"))
	t.Setenv("ANSIBLE_SSH_ARGS", "-o ControlMaster=no -o UserKnownHostsFile="+filepath.Join(f.base, "known_hosts")+" -o StrictHostKeyChecking=yes -o ConnectTimeout=5")
	t.Setenv("ANSIBLE_HOST_KEY_CHECKING", "True")
	t.Setenv("ANSIBLE_PIPELINING", "True")
	t.Setenv("ANSIBLE_LOCAL_TEMP", filepath.Join(f.base, "ansible-local"))
	t.Setenv("ANSIBLE_REMOTE_TEMP", filepath.Join(f.base, "ansible-remote"))
	t.Setenv("ANSIBLE_NOCOLOR", "1")
	return f
}

// inventory writes the inventory of devices (with more host variables by
// device name) and returns its path.
func (f *testFleet) inventory(t *testing.T, devices []*testDevice, vars map[string]string) string {
	t.Helper()
	var inv strings.Builder
	inv.WriteString("[devices]\n")
	for _, d := range devices {
		fmt.Fprintf(&inv, "%s ansible_host=%s boxtax_dir=%s %s\n", d.name, d.wire.ClientAddr, d.dir, vars[d.name])
	}
	fmt.Fprintf(&inv, "\n[devices:vars]\nansible_user=root\nansible_ssh_private_key_file=%s\nansible_python_interpreter=/usr/bin/python3\n", f.clientKey)
	path := filepath.Join(f.base, "inventory.ini")
	testenv.WriteFile(t, path, []byte(inv.String()), 0o600)
	return path
}

// context is the fleet runs' context: it ends a minute before the test's
// deadline, so the cleanups (namespaces, sshd) still run when Ansible is
// stuck.
func (f *testFleet) context(t *testing.T) context.Context {
	if dl, ok := t.Deadline(); ok {
		ctx, cancel := context.WithDeadline(context.Background(), dl.Add(-time.Minute))
		t.Cleanup(cancel)
		return ctx
	}
	return context.Background()
}
