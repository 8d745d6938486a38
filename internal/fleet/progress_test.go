package fleet

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
)

// TestDeviceProgressSaysALineADevice feeds Ansible's default output, as
// ansible-playbook prints it for the shipped playbook, and checks the lines
// fleet run shows instead (issue 27 item 7).
func TestDeviceProgressSaysALineADevice(t *testing.T) {
	transcript := `PLAY [Run a boxtax study on every device] **************************************

TASK [boxtax : Connect and read the architecture] ******************************
ok: [dev-a]
ok: [dev-gone]
ok: [dev-full]

TASK [boxtax : Gather the facts boxtax needs (architecture, home, Python)] *****
ok: [dev-a]
fatal: [dev-gone]: UNREACHABLE! => {"changed": false, "msg": "Failed to connect to the host via ssh: ssh: connect to host 127.0.0.1 port 2299: Connection refused", "unreachable": true}
...ignoring
ok: [dev-full]

TASK [boxtax : Copy the binary (to a temporary name, renamed once its checksum matches)] ***
changed: [dev-a]

TASK [boxtax : Verify the copy (sha256)] ***************************************
ok: [dev-a]

TASK [boxtax : Refuse a full disk] *********************************************
fatal: [dev-full]: FAILED! => {"changed": false, "msg": "only 3 MB free in /tmp/boxtax\u001b[2J: boxtax needs 50"}

TASK [boxtax : Run the study (quick)] ******************************************
changed: [dev-a]

TASK [boxtax : Wait for the study to end] **************************************
ok: [dev-a]

TASK [boxtax : Fetch the database (to a temporary name, renamed once complete)] ***
changed: [dev-a]

TASK [boxtax : Done] ***********************************************************
ok: [dev-a] => {
    "msg": "study finished"
}

PLAY [Summarise the fleet] *****************************************************

TASK [Write results/summary.json (one entry per device the first play reached for)] ***
changed: [localhost]

PLAY RECAP *********************************************************************
dev-a                      : ok=9    changed=3    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0
`
	var out bytes.Buffer
	p := newDeviceProgress(&out)
	// In pieces, as a pipe delivers them.
	for i := 0; i < len(transcript); i += 37 {
		p.Write([]byte(transcript[i:min(i+37, len(transcript))]))
	}
	want := `dev-a: connected
dev-gone: unreachable: Failed to connect to the host via ssh: ssh: connect to host 127.0.0.1 port 2299: Connection refused
dev-full: connected
dev-a: installing boxtax
dev-full: failed at "Refuse a full disk": only 3 MB free in /tmp/boxtax\x1b[2J: boxtax needs 50
dev-a: running the study
dev-a: fetching its database
dev-a: done
`
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
	if strings.Contains(out.String(), "localhost") {
		t.Error("the summary play's localhost is shown as a device")
	}
}

// TestRunKeepsTheWholeLogAndShowsALineADevice runs a stand-in for
// ansible-playbook that prints a device's tasks and a recap: without
// Verbose, out gets the device's line and the log file everything; with
// Verbose, out gets everything too. (TestFleetOverSSH in internal/cli runs
// the real Ansible.)
func TestRunKeepsTheWholeLogAndShowsALineADevice(t *testing.T) {
	dir := t.TempDir()
	inv := testenv.WriteFileIn(t, dir, "inventory.ini", []byte("dev-a ansible_host=127.0.0.1\n"), 0o644)
	prog := testenv.WriteFileIn(t, dir, "ansible-playbook", []byte("#!/bin/sh\nprintf 'TASK [boxtax : Gather the facts boxtax needs] ***\\nok: [dev-a]\\nTASK [boxtax : Refuse a full disk] ***\\nfatal: [dev-a]: FAILED! => {\"msg\": \"only 3 MB free\"}\\nPLAY RECAP ***\\ndev-a : ok=1 changed=0 unreachable=0 failed=1\\n'\nexit 2\n"), 0o755)
	for _, verbose := range []bool{false, true} {
		var out strings.Builder
		results := filepath.Join(dir, fmt.Sprint("results-", verbose))
		sum, err := Run(context.Background(), Options{Inventory: inv, Dist: dir, Results: results, AnsiblePlaybook: prog, Verbose: verbose}, &out)
		if err != nil || len(sum.Hosts) != 1 || sum.Hosts[0].Status != StatusFailed {
			t.Fatalf("verbose %v: %+v, %v", verbose, sum, err)
		}
		log, err := os.ReadFile(LogPath(results))
		if err != nil || !strings.Contains(string(log), "TASK [boxtax : Refuse a full disk]") || !strings.Contains(string(log), "PLAY RECAP") {
			t.Errorf("verbose %v: the log lacks Ansible's output: %v\n%s", verbose, err, log)
		}
		if got := strings.Contains(out.String(), "PLAY RECAP"); got != verbose {
			t.Errorf("verbose %v: Ansible's output shown: %v\n%s", verbose, got, out.String())
		}
		if !verbose && !strings.Contains(out.String(), "dev-a: connected\ndev-a: failed at \"Refuse a full disk\": only 3 MB free\n") {
			t.Errorf("no line a device:\n%s", out.String())
		}
	}
}
