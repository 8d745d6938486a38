package cli

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
)

// Part of the fault-injection suite (issue 25): other users reach the
// database. Each user is a real unprivileged process (setpriv), the
// owner one uid and a reader another; neither needs an account.
const (
	ownerUID  = 65533
	readerUID = nobodyUID
)

// TestAnotherUsersReaderLeavesNothingBehind: issue 25 item 4, `report` as
// another user left -wal and -shm files that it owned beside the database,
// and the owner's next `run` failed "attempt to write a readonly
// database".
func TestAnotherUsersReaderLeavesNothingBehind(t *testing.T) {
	dir, db, run := ownersFirstRun(t)
	for _, args := range [][]string{{"report", "--db", db}, {"list", "studies", "--db", db}} {
		if out, err := asUser(t, readerUID, dir, args...); err != nil || !strings.Contains(out, "cpu.prime") && !strings.Contains(out, "tiny") {
			t.Fatalf("boxtax %s as another user: %v\n%s", strings.Join(args, " "), err, out)
		}
		for _, suffix := range []string{"-wal", "-shm"} {
			if fi, err := os.Stat(db + suffix); err == nil {
				t.Errorf("boxtax %s as another user left %s (%v, owner uid %d)", strings.Join(args, " "), db+suffix, fi.Mode(), ownerOf(fi))
			}
		}
	}
	// The owner's next run works, and another user reads while it runs.
	owner := userCommand(t, ownerUID, dir, append(run, "--reps", "8")...)
	var ownerOut testenv.LockedBuffer
	owner.Stdout, owner.Stderr = &ownerOut, &ownerOut
	if err := owner.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 60*time.Second, "the owner's second study to start", &ownerOut, func() bool {
		studies, _, _ := testenv.Stored(t, db)
		return studies.ID == 2
	})
	if out, err := asUser(t, readerUID, dir, "report", "--db", db, "--format", "json"); err != nil {
		t.Errorf("report as another user beside the owner's run: %v\n%s", err, out)
	}
	if err := owner.Wait(); err != nil {
		t.Fatalf("the owner's run after another user read the database: %v\n%s", err, ownerOut.String())
	}
	if got := runsByStatus(t, db); got["ok"] != 8 || len(got) != 1 {
		t.Errorf("the owner's second study: %v, want 8 ok runs", got)
	}
	integrityOK(t, db)
	// A -wal or -shm the owner's run left (when a reader still had the
	// database open as it ended, SQLite leaves them to the next writer) is
	// the owner's; none may be the reader's.
	for _, suffix := range []string{"-wal", "-shm"} {
		if fi, err := os.Stat(db + suffix); err == nil && ownerOf(fi) != ownerUID {
			t.Errorf("%s is left, owned by uid %d, after every reader and writer ended", db+suffix, ownerOf(fi))
		}
	}
	if out, err := asUser(t, ownerUID, dir, run...); err != nil {
		t.Fatalf("the owner's third run: %v\n%s", err, out)
	}
}

// TestAKilledReaderOfAnotherUserDoesNotLockTheOwnerOut: a reader that
// keeps the database open (serve) as another user holds the -wal and -shm
// files it made: the owner's run is refused, saying to wait for it. Killed
// outright (no clean-up), it leaves them; the owner's next run removes
// them, as nobody has the database open any more, and runs.
func TestAKilledReaderOfAnotherUserDoesNotLockTheOwnerOut(t *testing.T) {
	dir, db, run := ownersFirstRun(t)
	addr := "127.0.0.1:" + strconv.Itoa(testenv.FreePort(t))
	serve := userCommand(t, readerUID, dir, "serve", "--db", db, "--addr", addr)
	var serveOut testenv.LockedBuffer
	serve.Stdout, serve.Stderr = &serveOut, &serveOut
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { serve.Process.Kill(); serve.Wait() })
	waitFor(t, 30*time.Second, "serve to answer", &serveOut, func() bool {
		resp, err := http.Get("http://" + addr + "/")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil
	})
	if fi, err := os.Stat(db + "-shm"); err != nil || ownerOf(fi) != readerUID {
		t.Fatalf("serve as another user made no -shm of its own (%v): this test no longer tests anything", err)
	}
	out, err := asUser(t, ownerUID, dir, run...)
	if err == nil || !strings.Contains(out, "permission denied") || !strings.Contains(out, "still has open") {
		t.Errorf("the owner's run beside another user's serve: %v, want a refusal saying to wait for the reader\n%s", err, out)
	}
	serve.Process.Kill()
	serve.Wait()
	if out, err := asUser(t, ownerUID, dir, run...); err != nil {
		t.Fatalf("the owner's run after another user's reader was killed: %v\n%s", err, out)
	}
	integrityOK(t, db)
}

// TestPermissionProblemsSaySo: issue 25 item 22, a database in a directory
// the user may not enter was "no database at ...: run a study first", and
// a file only its owner may read was "unable to open database file (14)".
func TestPermissionProblemsSaySo(t *testing.T) {
	testenv.RequireRoot(t, "running boxtax as another user")
	dir := sharedDir(t)
	work := t.TempDir()
	runOK(t, work, "run", testdata(t, "tiny.yaml"), "--envs", "native", "--workloads", "cpu.prime", "--warmup", "0",
		"--settle", "0", "--monitor-interval", "0", "--quiet", "--db", filepath.Join(work, "r.db"))
	b, err := os.ReadFile(filepath.Join(work, "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	closed := filepath.Join(dir, "closed")
	if err := os.Mkdir(closed, 0o700); err != nil {
		t.Fatal(err)
	}
	inClosed := filepath.Join(closed, "r.db")
	testenv.WriteFile(t, inClosed, b, 0o644)
	private := filepath.Join(dir, "private.db")
	testenv.WriteFile(t, private, b, 0o600)
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"report, a directory it may not enter", []string{"report", "--db", inClosed}, []string{"permission denied", closed}},
		{"report, a file only its owner reads", []string{"report", "--db", private}, []string{"permission denied", private, "0600"}},
		{"list, a file only its owner reads", []string{"list", "studies", "--db", private}, []string{"permission denied", private}},
		{"analyze, a directory it may not enter", []string{"analyze", "--db", inClosed}, []string{"permission denied", closed}},
		{"run, a directory it may not enter", []string{"run", "--resume", "--db", inClosed}, []string{"permission denied", closed}},
		{"run, a file it may not write", []string{"run", "--resume", "--db", private}, []string{"permission denied", private}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := asUser(t, readerUID, dir, c.args...)
			if err == nil {
				t.Fatalf("succeeded:\n%s", out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("the error does not say %q:\n%s", w, out)
				}
			}
			if strings.Contains(out, "run a study first") || strings.Contains(out, "(14)") {
				t.Errorf("the error blames something other than permissions:\n%s", out)
			}
		})
	}
}

func ownerOf(fi os.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// ownersFirstRun makes a database in a directory both users reach by a
// native run of tiny.yaml as the owner; it returns the directory, the
// database and the run's arguments, for the owner to run again.
func ownersFirstRun(t *testing.T) (dir, db string, run []string) {
	t.Helper()
	testenv.RequireRoot(t, "running boxtax as two other users")
	dir = sharedDir(t)
	db = filepath.Join(dir, "r.db")
	run = []string{"run", testdata(t, "tiny.yaml"), "--envs", "native", "--workloads", "cpu.prime", "--warmup", "0",
		"--settle", "0", "--monitor-interval", "0", "--quiet", "--db", db}
	if out, err := asUser(t, ownerUID, dir, run...); err != nil {
		t.Fatalf("the owner's first run: %v\n%s", err, out)
	}
	return dir, db, run
}
