package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
)

// TestFleetAsksForTheBecomePassword is issue 25 item 17: boxtax fleet run
// ... -- --ask-become-pass, typed in a terminal (a pseudo-terminal that
// script(1) opens), shows Ansible's prompt and takes the password, or a
// Ctrl-C that ends it, instead of hanging with Ansible stopped by SIGTTIN in
// a background process group. The playbook is one of one's own on
// localhost that hands back a database, so the command runs to its end.
func TestFleetAsksForTheBecomePassword(t *testing.T) {
	testenv.RequireTool(t, "ansible-playbook", "ansible-core")
	testenv.RequireTool(t, "script", "util-linux")
	for _, tc := range []struct {
		name, typed string
		ok          bool   // fleet run exits 0
		says        string // and its output says so
	}{
		{"the password typed", "hunter2\n", true, "merging 1 device databases"},
		{"Ctrl-C at the prompt", "\x03", false, "before every device was summarised"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := fleetInTerminal(t, tc.typed)
			if (err == nil) != tc.ok || !strings.Contains(out, tc.says) {
				t.Errorf("fleet run: %v, want it to end %s saying %q:\n%s", err, map[bool]string{true: "well", false: "with an error"}[tc.ok], tc.says, out)
			}
			if strings.Contains(out, "hunter2") {
				t.Errorf("the password was echoed:\n%s", out)
			}
		})
	}
}

// fleetInTerminal runs fleet run ... -- --ask-become-pass in a
// pseudo-terminal, types typed at Ansible's prompt and returns what the
// terminal showed and how the command ended. The test fails if no prompt
// comes or the command does not end.
func fleetInTerminal(t *testing.T, typed string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	db := filepath.Join(dir, "device.db")
	storedStudy(t, db, "on the device", epyc, 1)
	playbook := testenv.LocalPlaybook(t, dir, `{"schema": "boxtax.fleet/v1", "hosts": [{"host": "localhost", "status": "ok", "db": "`+db+`"}]}`, "")
	cmdline := strings.Join([]string{boxtaxBin, "fleet", "run", "-i", "localhost,", "--playbook", playbook, "--dist", dir,
		"--results", filepath.Join(dir, "results"), "--out", filepath.Join(dir, "fleet.db"), "--", "--ask-become-pass"}, " ")
	cmd := exec.Command("script", "-qefc", cmdline, "/dev/null")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ANSIBLE_LOCAL_TEMP="+filepath.Join(dir, "tmp"), "ANSIBLE_NOCOLOR=1")
	ownGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out testenv.LockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.After(60 * time.Second)
	prompted := false
	for {
		select {
		case err := <-done:
			if !prompted {
				t.Fatalf("fleet run ended without asking for the password (%v):\n%s", err, out.String())
			}
			return out.String(), err
		case <-deadline:
			killGroup(cmd)
			<-done
			t.Fatalf("fleet run hangs (prompted: %v):\n%s", prompted, out.String())
		case <-time.After(100 * time.Millisecond):
			if !prompted && strings.Contains(out.String(), "BECOME password:") {
				fmt.Fprint(stdin, typed)
				prompted = true
			}
		}
	}
}
