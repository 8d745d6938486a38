package cli

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// TestFleetDeviceKilledMidStudyArrivesWhole belongs to the fault-injection
// suite (fault_e2e_test.go), on a fleet: the study's boxtax on a device is
// killed outright (kill -9) half-way through. The playbook then fetches the
// device's database, which must hold every run the device committed, also
// those only in the write-ahead log that the killed process never
// checkpointed, and fleet run merges it (issue 25 item 2).
func TestFleetDeviceKilledMidStudyArrivesWhole(t *testing.T) {
	requireFleet(t)
	t.Parallel() // beside the other fleet tests, on a device of its own
	fl := newTestFleet(t)
	dev := fl.device(t, "dev-kill")
	inv := fl.inventory(t, []*testDevice{dev}, nil)
	ctx, cancel := context.WithCancel(fl.context(t))
	defer cancel()
	work := filepath.Join(fl.base, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	slow := filepath.Join(fl.base, "slow.yaml")
	testenv.WriteFile(t, slow, []byte("name: slow\nrepetitions: 8\nwarmup: 0\nenvs: [native]\nworkloads:\n  - name: cpu.prime\n    params: {duration: 700ms}\n"), 0o644)
	done := make(chan result, 1)
	go func() {
		done <- fleetRun(ctx, fl, work, slow, "-i", inv, "--dist", fl.dist, "--settle", "0", "--monitor-interval", "0")
	}()
	remote := filepath.Join(fl.dir(dev), dev.name+".db")
	if !waitForRuns(remote, "slow", 2, 6*time.Minute) {
		// Stop the fleet run rather than wait for it: the test would
		// otherwise hold the package until go test's own timeout.
		cancel()
		select {
		case res := <-done:
			t.Fatalf("the study did not get going on dev-kill in 6 minutes; fleet run stopped, exit %d:\n%s", res.code, res.stderr)
		case <-time.After(time.Minute):
			t.Fatal("the study did not get going on dev-kill in 6 minutes, and fleet run did not stop within a minute of its cancel")
		}
	}
	pid := controllerIn(t, dev, fl.dir(dev))
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	t.Logf("killed the study's boxtax (pid %d) on dev-kill", pid)
	res := <-done
	t.Logf("fleet run: exit %d\n%s", res.code, res.stdout)
	if st := fleetStatuses(res.stdout)[dev.name]; st.status != "failed" || res.code != ExitRunsFailed {
		t.Errorf("dev-kill: status %q, exit %d; want failed (its study was killed) and exit %d\n%s", st.status, res.code, ExitRunsFailed, res.stderr[max(0, len(res.stderr)-3000):])
	}
	// What the device committed, read on the device now that the fetch is
	// over (opening it for writing recovers the log).
	committed := finishedRuns(t, remote, store.Open)
	if committed < 2 {
		t.Fatalf("dev-kill committed %d runs, want at least the 2 waited for", committed)
	}
	if committed == 8 {
		t.Logf("every run finished before the kill: the test shows less than it should")
	}
	merged := filepath.Join(work, "fleet.db")
	if _, err := os.Stat(merged); err != nil {
		t.Fatalf("no merged database: %v\n%s", err, res.stderr)
	}
	if got := finishedRuns(t, merged, store.OpenReadOnly); got != committed {
		t.Errorf("the merged database has %d finished runs of dev-kill, the device committed %d\n%s", got, committed, res.stderr[max(0, len(res.stderr)-3000):])
	}
}

// finishedRuns counts the runs of the study named slow that are no longer
// pending in the database at path.
func finishedRuns(t *testing.T, path string, open func(context.Context, string) (*store.Store, error)) int {
	t.Helper()
	ctx := context.Background()
	db, err := open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	studies, err := db.Studies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, st := range studies {
		if st.Name != "slow" {
			continue
		}
		runs, err := db.Runs(ctx, st.ID)
		if err != nil {
			t.Fatal(err)
		}
		n += countRuns(runs, runDone)
	}
	return n
}

// controllerIn finds the `boxtax run` process in the device's namespace,
// of the binary in the test's boxtax_dir dir.
func controllerIn(t *testing.T, d *testDevice, dir string) int {
	t.Helper()
	for _, pid := range d.pids() {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		args := strings.Split(string(b), "\x00")
		if err == nil && len(args) > 1 && args[0] == filepath.Join(dir, "boxtax") && args[1] == "run" {
			return pid
		}
	}
	t.Fatalf("no boxtax run process of %s in %s", dir, d.wire.Namespace)
	return 0
}

// TestFleetCtrlCStopsTheDevicesStudies belongs to the fault-injection
// suite, on a fleet (issue 42 item 7): a second fleet run while a device's
// study runs does not start a second study there, it says why; and Ctrl-C
// of the first fleet run stops the study on the device (it ran detached
// and went on), which keeps its finished runs to resume.
func TestFleetCtrlCStopsTheDevicesStudies(t *testing.T) {
	requireFleet(t)
	t.Parallel() // beside the other fleet tests, on a device of its own
	fl := newTestFleet(t)
	dev := fl.device(t, "dev-int")
	inv := fl.inventory(t, []*testDevice{dev}, nil)
	ctx, cancel := context.WithCancel(fl.context(t))
	defer cancel()
	slow := filepath.Join(fl.base, "slow.yaml")
	// Long enough to outlast the second fleet run on a slow, shared
	// machine (minutes); Ctrl-C ends it long before.
	testenv.WriteFile(t, slow, []byte("name: slow\nrepetitions: 1000\nwarmup: 0\nenvs: [native]\nworkloads:\n  - name: cpu.prime\n    params: {duration: 2s}\n"), 0o644)
	work := func(name string) string {
		d := filepath.Join(fl.base, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	done := make(chan result, 1)
	go func() {
		done <- fleetRun(ctx, fl, work("first"), slow, "-i", inv, "--dist", fl.dist, "--settle", "0", "--monitor-interval", "0")
	}()
	remote := filepath.Join(fl.dir(dev), dev.name+".db")
	if !waitForRuns(remote, "slow", 1, 6*time.Minute) {
		cancel()
		t.Fatalf("the study did not get going on dev-int in 6 minutes: %+v", <-done)
	}
	pid := controllerIn(t, dev, fl.dir(dev))

	second := fleetRun(fl.context(t), fl, work("second"), slow, "-i", inv, "--dist", fl.dist, "--settle", "0", "--monitor-interval", "0")
	t.Logf("second fleet run: exit %d\n%s", second.code, second.stdout)
	if st := fleetStatuses(second.stdout)[dev.name]; st.status != "failed" || !strings.Contains(st.line, "a study is already running on this device") {
		t.Errorf("the second fleet run on dev-int: %q, want it failed, saying a study already runs there\n%s", st.line, second.stderr)
	}
	if n := len(studiesIn(t, remote)); n != 1 {
		t.Errorf("dev-int's database has %d studies, want the first one alone", n)
	}
	if syscall.Kill(pid, 0) != nil {
		t.Fatalf("the first study (pid %d) ended before Ctrl-C: it should last minutes", pid)
	}

	cancel() // Ctrl-C of the first fleet run
	res := <-done
	t.Logf("first fleet run after Ctrl-C: exit %d\n%s", res.code, res.stderr[max(0, len(res.stderr)-2000):])
	if res.code != ExitInterrupted {
		t.Errorf("exit %d, want %d", res.code, ExitInterrupted)
	}
	stderrSays(t, res, "stopping the study on every device", dev.name+": stopped the study running into "+remote)
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("the study's boxtax (pid %d) still runs on dev-int after Ctrl-C of fleet run", pid)
	}
	committed := finishedRuns(t, remote, store.Open)
	if committed < 1 || committed == 1000 {
		t.Errorf("dev-int kept %d finished runs of 1000: want those done before Ctrl-C, the rest left to resume", committed)
	}
}

// studiesIn lists the studies of the database at path.
func studiesIn(t *testing.T, path string) []store.Study {
	t.Helper()
	db, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sts, err := db.Studies(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return sts
}
