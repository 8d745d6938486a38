package fleet

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/deploy/ansible"
	"github.com/boxtax/boxtax/internal/errtest"
	"github.com/boxtax/boxtax/internal/testenv"
)

func TestShellJoin(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []string
		want string
	}{
		{"plain flags stay as they are", []string{"--reps", "5", "--envs", "native,docker-host"}, "--reps 5 --envs native,docker-host"},
		{"spaces are quoted", []string{"--power", "estimate:idle=2.1,full=6.4 W"}, "--power 'estimate:idle=2.1,full=6.4 W'"},
		{"quotes and shell characters", []string{"a'b", "$(rm -rf /)", ""}, `'a'"'"'b' '$(rm -rf /)' ''`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := shellJoin(tc.in); got != tc.want {
				t.Errorf("shellJoin(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestReadSummary(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, content, err string
		hosts              int
	}{
		{"summary", `{"schema":"boxtax.fleet/v1","study":"quick","hosts":[{"host":"pi3","status":"ok","db":"/r/pi3.db"},{"host":"pi4","status":"unreachable","reason":"no route"}]}`, "", 2},
		{"another schema", `{"schema":"other/v1"}`, "want boxtax.fleet/v1", 0},
		{"not JSON", `PLAY RECAP`, "invalid character", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name+".json")
			testenv.WriteFile(t, p, []byte(tc.content), 0o644)
			s, err := ReadSummary(p)
			if errtest.Want(t, err, tc.err) {
				return
			}
			if len(s.Hosts) != tc.hosts || s.Hosts[1].Status != StatusUnreachable {
				t.Fatalf("%+v", s)
			}
		})
	}
}

func TestRunSaysWhatIsMissing(t *testing.T) {
	dir := t.TempDir()
	inv := testenv.WriteFileIn(t, dir, "inventory.ini", []byte("pi ansible_host=127.0.0.1\n"), 0o644)
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"no Ansible", Options{Inventory: inv, Dist: dir, Results: dir, AnsiblePlaybook: "", Env: []string{"PATH=" + dir}}, "install Ansible"},
		{"no inventory", Options{Inventory: filepath.Join(dir, "none.ini"), Dist: dir, Results: dir, AnsiblePlaybook: "/bin/true"}, "inventory"},
		{"no binaries", Options{Inventory: inv, Dist: filepath.Join(dir, "dist"), Results: dir, AnsiblePlaybook: "/bin/true"}, "make build-all"},
		{"no summary", Options{Inventory: inv, Dist: dir, Results: dir, AnsiblePlaybook: "/bin/false"}, "before every device was summarised"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "no Ansible" {
				t.Setenv("PATH", dir)
			}
			_, err := Run(context.Background(), tc.o, &strings.Builder{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
			var bad *InventoryError
			if tc.name == "no inventory" && !errors.As(err, &bad) {
				t.Errorf("want an InventoryError, got %v", err)
			}
			if tc.name == "no Ansible" && !errors.Is(err, ErrNoAnsible) {
				t.Errorf("want ErrNoAnsible, got %v", err)
			}
		})
	}
}

// TestPlaybookIsEmbedded: the binary carries the playbook and its role.
func TestPlaybookIsEmbedded(t *testing.T) {
	dir := t.TempDir()
	if err := ansible.WriteTo(dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{ansible.Playbook, "roles/boxtax/tasks/main.yml", "roles/boxtax/tasks/fetch.yml", "roles/boxtax/defaults/main.yml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestRecapSummary(t *testing.T) {
	out := `PLAY RECAP *********************************************************************
dev-c                      : ok=19   changed=3    unreachable=1    failed=0    skipped=6    rescued=0    ignored=0
dev-d                      : ok=4    changed=0    unreachable=0    failed=1    skipped=0    rescued=0    ignored=0
localhost                  : ok=1    changed=1    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0
`
	s := recapSummary(out)
	if len(s.Hosts) != 2 || s.Hosts[0].Host != "dev-c" || s.Hosts[0].Status != StatusUnreachable || s.Hosts[1].Status != StatusFailed {
		t.Errorf("%+v", s.Hosts)
	}
}

// TestInventoryComplaints: what Ansible says about an inventory it cannot
// use is read from its output (warnings wrapped onto more lines, said
// twice, between the playbook's own lines), each once and on one line.
func TestInventoryComplaints(t *testing.T) {
	out := `[WARNING]:  * Failed to parse /tmp/x/bad.ini with ini plugin: not
enough values to unpack (expected 3, got 2)
[WARNING]: Unable to parse /tmp/x/bad.ini as an inventory source
[WARNING]: No inventory was parsed, only implicit localhost is available

PLAY [all] *********************************************************************
skipping: no hosts matched
[WARNING]: Could not match supplied host pattern, ignoring: devices
ok: [localhost]
[WARNING]:  * Failed to parse /tmp/x/bad.ini with ini plugin: not
enough values to unpack (expected 3, got 2)
[WARNING]: Platform linux on host localhost is using the discovered Python
ERROR! No inventory was parsed, please check your configuration and options.
`
	want := []string{
		"Failed to parse /tmp/x/bad.ini with ini plugin: not enough values to unpack (expected 3, got 2)",
		"Unable to parse /tmp/x/bad.ini as an inventory source",
		"No inventory was parsed, only implicit localhost is available",
		"Could not match supplied host pattern, ignoring: devices",
		"No inventory was parsed, please check your configuration and options",
	}
	got := inventoryComplaints(out)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := inventoryComplaints("PLAY RECAP ****\nlocalhost : ok=1\n"); len(got) != 0 {
		t.Errorf("output without warnings: %q", got)
	}
}
