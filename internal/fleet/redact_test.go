package fleet

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
)

func TestRedactExtraVars(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in, want []string
	}{
		{"key=value", []string{"-e", "password=xyz user=me"}, []string{"-e", "password=<redacted> user=<redacted>"}},
		{"long form", []string{"--extra-vars", "password=xyz"}, []string{"--extra-vars", "password=<redacted>"}},
		{"long form with =", []string{"--extra-vars=password=xyz"}, []string{"--extra-vars=password=<redacted>"}},
		{"joined", []string{"-epassword=xyz"}, []string{"-epassword=<redacted>"}},
		{"in a cluster", []string{"-ve", "password=xyz", "-vvepassword=xyz"}, []string{"-ve", "password=<redacted>", "-vvepassword=<redacted>"}},
		{"JSON", []string{"-e", `{"password": "xyz", "n": 3}`}, []string{"-e", `{"n":"<redacted>","password":"<redacted>"}`}},
		{"YAML or quoted", []string{"-e", `password: "xyz"`}, []string{"-e", "<redacted>"}},
		{"a file keeps its name", []string{"-e", "@secrets.yml"}, []string{"-e", "@secrets.yml"}},
		{"other flags stay", []string{"-v", "--limit", "pi4", "-K", "--ask-become-pass"}, []string{"-v", "--limit", "pi4", "-K", "--ask-become-pass"}},
		{"-e at the end", []string{"-v", "-e"}, []string{"-v", "-e"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := RedactExtraVars(tc.in)
			if strings.Join(got, "\x00") != strings.Join(tc.want, "\x00") {
				t.Errorf("RedactExtraVars(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestRunNeverPrintsExtraVars is issue 25 item 18: fleet run ... -- -e
// password=xyz hands the secret to ansible-playbook (the real one, running
// a playbook of one's own on localhost) but never prints it.
func TestRunNeverPrintsExtraVars(t *testing.T) {
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		testenv.Missing(t, "ansible-playbook (Debian: ansible-core)")
	}
	dir := t.TempDir()
	got := filepath.Join(dir, "got")
	playbook := testenv.WriteFileIn(t, dir, "own.yml", []byte(`- hosts: localhost
  connection: local
  gather_facts: false
  tasks:
    - ansible.builtin.copy:
        dest: "{{ boxtax_results }}/summary.json"
        content: '{"schema": "boxtax.fleet/v1", "hosts": []}'
    - ansible.builtin.copy:
        dest: `+got+`
        content: "{{ password }}"
`), 0o644)
	var out strings.Builder
	o := Options{Inventory: "localhost,", Dist: dir, Results: filepath.Join(dir, "results"), Playbook: playbook,
		Extra: []string{"-e", "password=xyz-secret-42"}}
	o.Env = append(os.Environ(), "ANSIBLE_LOCAL_TEMP="+filepath.Join(dir, "tmp"), "ANSIBLE_NOCOLOR=1")
	if _, err := Run(context.Background(), o, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if b, err := os.ReadFile(got); err != nil || string(b) != "xyz-secret-42" {
		t.Fatalf("ansible-playbook got %q (%v), want the secret", b, err)
	}
	if strings.Contains(out.String(), "xyz-secret-42") {
		t.Errorf("the secret was printed:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "-e password=<redacted>") {
		t.Errorf("the command line should show the variable's name:\n%s", out.String())
	}
}
