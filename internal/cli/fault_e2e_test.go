package cli

// The fault-injection suite (issue 15): a real boxtax process, the real
// Docker engine, and the faults a device in the field meets: the
// controller killed outright, a worker or its container killed, the
// Docker daemon's connection lost, the disk full; and (issue 25) a second
// controller reaching the database through a symlink or a hard link, and
// another user reading it (fault_users_e2e_test.go). After each: the database
// passes SQLite's integrity check, no finished run is lost or doubled,
// nothing boxtax started is left once `boxtax clean` ran, and the study
// can be completed.

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// faultDelay is a random point into the run in flight at which a fault
// strikes (0 to 1.2 s of a 1.5 s run), logged so that a failure can be
// told apart; BOXTAX_FAULT_DELAY (e.g. 400ms) fixes it.
func faultDelay(t *testing.T) time.Duration {
	t.Helper()
	d := time.Duration(rand.Int64N(int64(1200 * time.Millisecond)))
	if v := os.Getenv("BOXTAX_FAULT_DELAY"); v != "" {
		var err error
		if d, err = time.ParseDuration(v); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("the fault strikes %v into the run (BOXTAX_FAULT_DELAY=%v replays it)", d, d)
	return d
}

// integrityOK runs SQLite's integrity check on the database and checks
// that no run's samples are doubled.
func integrityOK(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var res string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&res); err != nil || res != "ok" {
		t.Errorf("integrity_check of %s: %q, %v", path, res, err)
	}
	var doubled int
	if err := db.QueryRow(`SELECT COUNT(*) FROM (SELECT run_id, instance, metric FROM samples GROUP BY run_id, instance, metric HAVING COUNT(*) > 1)`).Scan(&doubled); err != nil || doubled != 0 {
		t.Errorf("%d (run, metric) pairs have more than one sample: %v", doubled, err)
	}
}

// runsByStatus counts the latest study's measured runs by status.
func runsByStatus(t *testing.T, path string) map[string]int {
	t.Helper()
	runs := latestRuns(t, path)
	out := map[string]int{}
	for _, r := range runs {
		if !r.Warmup {
			out[r.Status]++
		}
	}
	return out
}

// resumeKeeps resumes the study in dbPath after kept finished runs: it
// must start after them, end with want runs, all finished, and leave the
// database intact.
func resumeKeeps(t *testing.T, dir, dbPath string, kept, want int) {
	t.Helper()
	res := runOK(t, dir, "run", "--resume", "--db", dbPath, "--settle", "0", "--monitor-interval", "0")
	if !strings.Contains(res.stderr, fmt.Sprintf("(%d done before)", kept)) {
		t.Errorf("resume did not start after the %d kept runs:\n%s", kept, res.stderr)
	}
	if got := runsByStatus(t, dbPath); got[store.RunOK] != want || len(got) != 1 {
		t.Errorf("runs after resume: %v, want %d ok", got, want)
	}
	integrityOK(t, dbPath)
}

// TestKilledControllerIsCleanedAndResumed: SIGKILL (no clean-up possible)
// while a container runs; boxtax clean removes the container by its
// controller label, the database is intact, and --resume completes the
// study with every finished run kept once.
func TestKilledControllerIsCleanedAndResumed(t *testing.T) {
	r := startSlowRun(t, nil, "k.db", "3", true, "--monitor-interval", "0")
	c, dir, dbPath, cmd, pid := r.c, r.dir, r.db, r.cmd, r.pid
	time.Sleep(faultDelay(t))
	cmd.Process.Kill()
	cmd.Wait()
	kept := okRuns(t, dbPath)
	left := len(containersOf(t, c, pid))
	integrityOK(t, dbPath)
	res := runIn(t, dir, "clean")
	if res.code != ExitOK || !strings.Contains(res.stdout, fmt.Sprintf("removed %d container(s) started by boxtax", left)) {
		t.Errorf("clean: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if left := containersOf(t, c, pid); len(left) > 0 {
		t.Errorf("%d container(s) of the killed controller left after clean", len(left))
	}
	resumeKeeps(t, dir, dbPath, kept, 6)
}

// TestKilledWorkerIsAFailedRunAndTheStudyGoesOn: the native worker
// process killed, and the container killed (docker kill): each is a failed
// run with its reason, and every other run finishes.
func TestKilledWorkerIsAFailedRunAndTheStudyGoesOn(t *testing.T) {
	r := startSlowRun(t, nil, "w.db", "5", false, "--monitor-interval", "0")
	c, dir, dbPath, cmd, stderr, pid := r.c, r.dir, r.db, r.cmd, r.stderr, r.pid
	var killedNative, killedContainer bool
	waitFor(t, 90*time.Second, "a native worker and a container to kill", stderr, func() bool {
		if !killedNative {
			if w := workerChild(pid); w > 0 {
				time.Sleep(200 * time.Millisecond)
				killedNative = syscall.Kill(w, syscall.SIGKILL) == nil
			}
		}
		if !killedContainer {
			for _, ct := range containersOf(t, c, pid) {
				if ct.State == "running" {
					time.Sleep(200 * time.Millisecond)
					killedContainer = c.ContainerKill(context.Background(), ct.ID, "KILL") == nil
				}
			}
		}
		return killedNative && killedContainer
	})
	wantExit(t, cmd.Wait(), ExitRunsFailed, stderr.String())
	if got := runsByStatus(t, dbPath); got[store.RunFailed] != 2 || got[store.RunOK] != 4 {
		t.Errorf("runs: %v, want 2 failed and 4 ok", got)
	}
	rep := runIn(t, dir, "report", "--db", dbPath)
	textSays(t, "the report", rep.stdout+rep.stderr, "cpu.prime @ native", "signal: killed", "cpu.prime @ docker-host", "exited with code 137")
	if left := containersOf(t, c, pid); len(left) > 0 {
		t.Errorf("%d container(s) left", len(left))
	}
	integrityOK(t, dbPath)
}

// workerChild is the pid of a running native worker of the controller
// pid (a child whose command line is "... worker ..."), 0 if none.
func workerChild(pid int) int {
	for _, c := range childProcesses(pid) {
		if args := strings.Split(c.cmdline, "\x00"); len(args) > 1 && args[1] == "worker" {
			return c.pid
		}
	}
	return 0
}

// childProcess is a process as /proc shows it.
type childProcess struct {
	pid     int
	state   string // "R", "S", "Z" ...
	cmdline string // the arguments, each ended by a NUL byte
}

// childProcesses are the processes whose parent is ppid, in pid order
// as /proc lists them.
func childProcesses(ppid int) []childProcess {
	var out []childProcess
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		if len(f) < 2 || f[1] != strconv.Itoa(ppid) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "cmdline"))
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		out = append(out, childProcess{pid: pid, state: f[0], cmdline: string(cmdline)})
	}
	return out
}

// socketProxy forwards a unix socket to the Docker daemon's until cut.
type socketProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newSocketProxy(t *testing.T, path, target string) *socketProxy {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	p := &socketProxy{ln: ln}
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("unix", target)
			if err != nil {
				in.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, in, out)
			p.mu.Unlock()
			go func() { io.Copy(out, in); out.Close() }()
			go func() { io.Copy(in, out); in.Close() }()
		}
	}()
	t.Cleanup(p.cut)
	return p
}

// cut closes the socket and every connection through it, as a daemon
// that died would.
func (p *socketProxy) cut() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// TestDockerConnectionLostMidStudy: the daemon's socket goes away while a
// container runs. boxtax stops the study saying what happened and how to
// go on, keeps every finished run, and once the daemon answers again clean
// removes the container and --resume completes the study.
func TestDockerConnectionLostMidStudy(t *testing.T) {
	c := testenv.RequireDocker(t)
	dir := t.TempDir()
	sockDir := testenv.SocketDir(t)
	sock := filepath.Join(sockDir, "docker.sock")
	target := strings.TrimPrefix(c.Host(), "unix://")
	proxy := newSocketProxy(t, sock, target)
	hostEnv := "DOCKER_HOST=unix://" + sock
	r := startSlowRunIn(t, c, dir, []string{hostEnv}, "d.db", "3", true, "--monitor-interval", "0")
	dbPath, cmd, stderr, pid := r.db, r.cmd, r.stderr, r.pid
	time.Sleep(faultDelay(t))
	proxy.cut()
	os.Remove(sock)
	start := time.Now()
	err := cmd.Wait()
	if took := time.Since(start); took > 60*time.Second {
		t.Errorf("boxtax took %v to stop after the daemon went away", took)
	}
	if err == nil {
		t.Fatalf("the study went on as if nothing happened; stderr:\n%s", stderr.String())
	}
	textSays(t, "stderr", stderr.String(), "cannot reach Docker at unix://"+sock, "boxtax run --resume --db "+dbPath)
	kept := okRuns(t, dbPath)
	integrityOK(t, dbPath)
	// The daemon is back (the socket answers again).
	newSocketProxy(t, sock, target)
	t.Setenv("DOCKER_HOST", "unix://"+sock)
	if res := runIn(t, dir, "clean"); res.code != ExitOK {
		t.Errorf("clean: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if left := containersOf(t, c, pid); len(left) > 0 {
		t.Errorf("%d container(s) left after clean", len(left))
	}
	resumeKeeps(t, dir, dbPath, kept, 6)
}

// TestDiskFullStopsTheStudyAndResumes: the database's filesystem fills up
// mid-study (a small tmpfs). boxtax stops saying the disk is full and
// where, the database is intact, and once space is freed --resume
// completes the study.
func TestDiskFullStopsTheStudyAndResumes(t *testing.T) {
	dir := t.TempDir()
	mnt := filepath.Join(dir, "small")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mnt).CombinedOutput(); err != nil {
		testenv.Missing(t, "cannot mount a small tmpfs here (needs root): %v %s", err, out)
	}
	defer exec.Command("umount", "-l", mnt).Run()
	dbPath := filepath.Join(mnt, "f.db")
	cmd, stderr := startRun(t, dir, nil, testdata(t, "tiny.yaml"), "--envs", "native", "--workloads", "cpu.prime", "--reps", "8", "--warmup", "0",
		"--db", dbPath, "--seed", "3", "--settle", "0", "--monitor-interval", "0")
	after := 1 + rand.IntN(3)
	t.Logf("the disk fills after %d finished run(s)", after)
	waitFor(t, 60*time.Second, "a finished run", stderr, func() bool { return okRuns(t, dbPath) >= after })
	// Fill the filesystem to the last byte.
	filler := filepath.Join(mnt, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			break
		}
	}
	for {
		if _, err := f.Write(chunk[:1]); err != nil {
			break
		}
	}
	f.Close()
	err = cmd.Wait()
	if err == nil {
		t.Fatalf("the study finished on a full disk; stderr:\n%s", stderr.String())
	}
	textSays(t, "stderr", stderr.String(), "disk full", mnt, "boxtax run --resume --db "+dbPath)
	kept := okRuns(t, dbPath)
	integrityOK(t, dbPath)
	os.Remove(filler)
	resumeKeeps(t, dir, dbPath, kept, 8)
}

// TestSecondControllerThroughALinkIsRefused: issue 25 item 1, a second
// `run --resume` that reached the database through a symlink (or a hard
// link) took a lock of its own and did the pending runs of a study that
// was still running. Both controllers are real; the second is refused
// through either link, and every run is done once.
func TestSecondControllerThroughALinkIsRefused(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "r.db")
	cmd, stderr := startRun(t, dir, nil, testdata(t, "slow.yaml"), "--envs", "native", "--reps", "4", "--db", dbPath,
		"--seed", "3", "--settle", "0", "--monitor-interval", "0", "--quiet")
	waitFor(t, 60*time.Second, "a finished run", stderr, func() bool { return okRuns(t, dbPath) >= 1 })
	if err := os.Symlink("r.db", filepath.Join(dir, "a.db")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(dbPath, filepath.Join(dir, "h.db")); err != nil {
		t.Fatal(err)
	}
	// Through the symlink the second controller meets the study's lock;
	// through the hard link it is refused before that, as SQLite would
	// keep a second -wal beside that name.
	for link, refusal := range map[string]string{"a.db": "being run by another boxtax process", "h.db": "has 2 names (hard links)"} {
		res := runIn(t, dir, "run", "--resume", "--db", link, "--settle", "0", "--monitor-interval", "0", "--quiet")
		if res.code == ExitOK || !strings.Contains(res.stderr, refusal) {
			t.Errorf("run --resume --db %s beside the running study: exit %d, want a refusal saying %q\n%s", link, res.code, refusal, res.stderr)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the first controller: %v\n%s", err, stderr.String())
	}
	if got := runsByStatus(t, dbPath); got[store.RunOK] != 4 || len(got) != 1 {
		t.Errorf("runs: %v, want 4 ok", got)
	}
	integrityOK(t, dbPath)
}
