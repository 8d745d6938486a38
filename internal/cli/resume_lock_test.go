package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// TestResumeRefusesAStudyBeingRun: issue 15 item 4, `run --resume` while
// the first `run` was still going made both processes execute the same
// pending runs.
func TestResumeRefusesAStudyBeingRun(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "boxtax.db")
	st := &store.Study{Name: "busy", Seed: 1, HostJSON: "{}", SpecYAML: "name: busy\nenvs: [native]\nworkloads: [sys.idle]\n"}
	runs := []store.Run{{Seq: 0, CellKey: "sys.idle|env=native", Workload: "sys.idle", Env: "native", Levels: map[string]string{"env": "native"}, Params: map[string]any{}}}
	testenv.CreateStudy(t, path, st, runs)
	// The first runner holds the study, as `boxtax run` does while it runs.
	release, err := store.LockStudy(path, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	res := runIn(t, dir, "run", "--resume", "--db", "boxtax.db")
	if res.code == ExitOK || !strings.Contains(res.stderr, "being run by another boxtax process") {
		t.Fatalf("exit %d, stderr %q; want a refusal", res.code, res.stderr)
	}
	ctx := context.Background()
	db := testenv.OpenStore(t, path)
	got, err := db.Runs(ctx, st.ID)
	if err != nil || len(got) != 1 || got[0].Status != store.RunPending {
		t.Fatalf("the pending run was touched: %+v, %v", got, err)
	}
}
