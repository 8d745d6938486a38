package fleet

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// On a device, the playbook starts the study as
//
//	boxtax fleet idle --db DB && echo $$ > DB.pid && exec boxtax run ... --db DB
//
// so that DB.pid names the study's process while it runs: a second fleet
// run then refuses to start a second study there (fleet idle), and Ctrl-C
// of the fleet run stops the study (fleet stop), which is otherwise
// detached from Ansible and goes on (issue 42 item 7).

// PIDFile is the file beside the device's database that names the process
// of the study running into it.
func PIDFile(db string) string { return db + ".pid" }

// ErrStudyRunning says a study already runs into the device's database.
var ErrStudyRunning = errors.New("a study is already running on this device")

// StudyProcess is the process of the study running into db on this
// machine, or 0: the one DB.pid names while it is a boxtax run (or a
// runner of one, such as qemu) into db.
func StudyProcess(db string) int {
	b, err := os.ReadFile(PIDFile(db))
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return 0
	}
	args := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
	isRun, intoDB := false, false
	for i, a := range args {
		isRun = isRun || a == "run" && i > 0 && strings.HasSuffix(args[i-1], "boxtax")
		intoDB = intoDB || a == "--db" && i+1 < len(args) && args[i+1] == db || a == "--db="+db
	}
	if !isRun || !intoDB {
		return 0 // the number was given to another process since
	}
	return pid
}

// CheckIdle refuses, with ErrStudyRunning, when a study runs into db.
func CheckIdle(db string) error {
	pid := StudyProcess(db)
	if pid == 0 {
		return nil
	}
	since := ""
	if fi, err := os.Stat(PIDFile(db)); err == nil {
		since = ", started " + fi.ModTime().UTC().Format("2006-01-02 15:04 MST")
	}
	return fmt.Errorf("%w into %s (pid %d%s): wait for it to end, or stop it first (Ctrl-C of the fleet run that started it, or boxtax fleet stop --db %s on the device)",
		ErrStudyRunning, db, pid, since, db)
}

// Stop stops the study running into db as Ctrl-C would (SIGINT: it
// removes what it started and keeps its finished runs, to resume) and
// waits up to wait for it to end. It says what it did.
func Stop(db string, wait time.Duration) (string, error) {
	pid := StudyProcess(db)
	if pid == 0 {
		return fmt.Sprintf("no study running into %s", db), nil
	}
	if err := syscall.Kill(pid, syscall.SIGINT); err != nil {
		return "", fmt.Errorf("stopping the study (pid %d): %w", pid, err)
	}
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) || StudyProcess(db) == 0 {
			if err := os.Remove(PIDFile(db)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
			return fmt.Sprintf("stopped the study running into %s (pid %d); resume it with boxtax fleet run --resume", db, pid), nil
		}
	}
	return "", fmt.Errorf("the study running into %s (pid %d) did not stop within %s of SIGINT", db, pid, wait)
}
