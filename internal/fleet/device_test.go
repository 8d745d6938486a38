package fleet

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
)

// TestIdleAndStop: a study process named by DB.pid makes CheckIdle refuse
// (issue 42 item 7: a second fleet run started a second study beside it)
// and Stop ends it with SIGINT, as Ctrl-C; a number that names another
// process, or none, is no study.
func TestIdleAndStop(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "dev.db")
	if err := CheckIdle(db); err != nil {
		t.Fatalf("no pid file: %v", err)
	}
	// A stand-in for `boxtax run --db DB`: its command line is the study's,
	// and it ends on SIGINT.
	study := exec.Command("sh", "-c", "trap 'exit 130' INT; sleep 60 & wait", filepath.Join(dir, "boxtax"), "run", "--db", db)
	if err := study.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- study.Wait() }()
	t.Cleanup(func() { study.Process.Kill() })
	testenv.WriteFile(t, PIDFile(db), []byte(strconv.Itoa(study.Process.Pid)+"\n"), 0o644)
	time.Sleep(100 * time.Millisecond) // sh sets its trap

	err := CheckIdle(db)
	if !errors.Is(err, ErrStudyRunning) || !strings.Contains(err.Error(), "pid "+strconv.Itoa(study.Process.Pid)) {
		t.Errorf("a study runs: %v, want ErrStudyRunning with its pid", err)
	}
	if err := CheckIdle(filepath.Join(dir, "other.db")); err != nil {
		t.Errorf("another database: %v", err)
	}
	other := filepath.Join(dir, "other.db")
	testenv.WriteFile(t, PIDFile(other), []byte(strconv.Itoa(os.Getpid())), 0o644) // a process, but no study into other.db
	if err := CheckIdle(other); err != nil {
		t.Errorf("a pid file naming another process: %v", err)
	}

	said, err := Stop(db, 20*time.Second)
	if err != nil || !strings.Contains(said, "stopped the study running into "+db) {
		t.Fatalf("Stop: %q, %v", said, err)
	}
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the study still runs after Stop")
	}
	if _, err := os.Stat(PIDFile(db)); err == nil {
		t.Errorf("the pid file stays after the study stopped")
	}
	if said, err := Stop(db, time.Second); err != nil || !strings.Contains(said, "no study running") {
		t.Errorf("Stop again: %q, %v", said, err)
	}
}

func TestStopOutcomes(t *testing.T) {
	out := `PLAY [Stop the boxtax study on every device] ***
TASK [boxtax : Stop the study] ***
changed: [dev-a]
fatal: [dev-b]: UNREACHABLE! => {"changed": false, "msg": "Failed to connect to the host via ssh", "unreachable": true}
TASK [boxtax : Say what fleet stop did] ***
ok: [dev-a] => {
    "msg": "boxtax: stopped the study running into /root/boxtax/dev-a.db (pid 42); resume it with boxtax fleet run --resume"
}
ok: [dev-c] => {
    "msg": "boxtax: no study running into /root/boxtax/dev-c.db"
}
`
	got := stopOutcomes(out)
	want := []string{
		`dev-b: UNREACHABLE! => {"changed": false, "msg": "Failed to connect to the host via ssh", "unreachable": true}`,
		"dev-a: stopped the study running into /root/boxtax/dev-a.db (pid 42); resume it with boxtax fleet run --resume",
		"dev-c: no study running into /root/boxtax/dev-c.db",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
