package study

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// TestRunChecksTheCommandFirst: a --cmd study runs its command once before
// the study is stored (issue 27 item 2). One that fails there stops the
// study with a *CheckError and stores nothing; one that works has its
// check run kept as the warm-up round, not run again.
func TestRunChecksTheCommandFirst(t *testing.T) {
	testenv.SkipShort(t, "builds boxtax and runs a command natively")
	sh := testenv.RequireTool(t, "sh", "dash")
	o, p, log := lifecycleOptions(t)
	o.Study, o.Envs, o.Reps.N, o.Warmup = "", []string{"native"}, 1, 0
	o.Command = Command{Cmds: []string{sh + " -c 'echo no sensor >&2; exit 3'"}}
	_, err := Run(context.Background(), o, p)
	var check *CheckError
	if !errors.As(err, &check) || !check.Native || !strings.Contains(check.Reason, "exited with status 3") || !strings.Contains(check.Reason, "no sensor") {
		t.Fatalf("Run = %v, want a CheckError of native with the status and output\n%s", err, log)
	}
	if db, err := store.Open(context.Background(), o.DB); err == nil {
		if _, err := db.LatestStudy(context.Background(), false); err == nil {
			t.Error("a study was stored")
		}
		db.Close()
	}

	log.Reset()
	o.DB = filepath.Join(t.TempDir(), "ok.db")
	o.Command, o.Warmup, o.Reps.N = Command{Cmds: []string{sh + " -c 'echo 5 frames'"}}, 1, 2
	st, err := Run(context.Background(), o, p)
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	warm := 0
	for _, r := range st.Runs {
		if r.Status != store.RunOK {
			t.Errorf("run %d: %s %s", r.Seq, r.Status, r.Reason)
		}
		if r.Warmup {
			warm++
		}
	}
	if len(st.Runs) != 3 || warm != 1 || !strings.Contains(log.String(), "native: ok") || !strings.Contains(log.String(), "2 runs to do (1 done before)") {
		t.Errorf("%d runs, %d warm-up; want 3 and 1, the check being the warm-up:\n%s", len(st.Runs), warm, log)
	}
	if _, err := os.Stat(o.DB); err != nil {
		t.Error(err)
	}
}

// TestCheckSaysWhichLevel: issue 42, 11 and 12: a failed check says which
// --param level failed, the ok checks of many levels are counted in one
// line, not listed; a program that ran but printed no number for --metric
// is not said to fail on this host.
func TestCheckSaysWhichLevel(t *testing.T) {
	testenv.SkipShort(t, "builds boxtax and runs a command natively")
	sh := testenv.RequireTool(t, "sh", "dash")
	o, p, log := lifecycleOptions(t)
	o.Study, o.Envs, o.Reps.N, o.Warmup = "", []string{"native"}, 1, 0
	o.Command = Command{Cmds: []string{sh + " -c 'test {n} -ne 12 || { echo boom >&2; exit 3; }; echo {n} frames'"},
		Params: []string{"n=1,2,3,4,5,6,7,8,9,10,11,12"}}
	_, err := Run(context.Background(), o, p)
	var check *CheckError
	if !errors.As(err, &check) || check.Levels != "n=12" || !strings.Contains(err.Error(), "the command failed in native with n=12 before") {
		t.Fatalf("Run = %v, want a CheckError of native with n=12\n%s", err, log)
	}
	if got := log.String(); !strings.Contains(got, "native: ok for 11 of 12 levels") || !strings.Contains(got, "native (n=12): failed") || strings.Contains(got, "native (n=1): ok") {
		t.Errorf("the check lines, want the ok ones counted and the failed one named:\n%s", got)
	}

	log.Reset()
	o.DB = filepath.Join(t.TempDir(), "metric.db")
	o.Command = Command{Cmds: []string{sh + " -c 'echo frames: many'"}, Metrics: []string{`frames=frames: (\S+)`}}
	_, err = Run(context.Background(), o, p)
	if !errors.As(err, &check) || !strings.Contains(check.Hint, `the program ran, but --metric frames's regex`) || strings.Contains(check.Hint, "fails on this host") {
		t.Fatalf("Run = %v, want a hint on the metric, not on the program\n%s", err, log)
	}
}
