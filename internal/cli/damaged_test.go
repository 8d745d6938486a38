package cli

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestADamagedSeriesIsRefusedAndNamed: issue 25 item 8, a series row
// changed behind boxtax (`update series set data=x'0102', n=-5`) was
// merged as it was; report then crashed (exit 70, makeslice in
// store/series.go). merge refuses the input, and report says which run is
// damaged.
func TestADamagedSeriesIsRefusedAndNamed(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "pi3.db")
	deviceDB(t, in, "pi3")
	raw, err := sql.Open("sqlite", in)
	if err != nil {
		t.Fatal(err)
	}
	var runID int64
	if err := raw.QueryRow(`SELECT MIN(id) FROM runs WHERE status = 'ok' AND warmup = 0`).Scan(&runID); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`INSERT INTO series (run_id, instance, name, unit, chunk, n, data) VALUES (?, 0, 'lat', 'ns', 0, -5, x'0102')`, runID); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	want := fmt.Sprintf("run %d:", runID)

	res := runIn(t, dir, "merge", "fleet.db", "pi3.db")
	if res.code != ExitError || !strings.Contains(res.stderr, "damaged") || !strings.Contains(res.stderr, want) {
		t.Errorf("merge of the damaged input: exit %d, want %d naming %s\n%s", res.code, ExitError, want, res.stderr)
	}
	if n := studyCount(t, filepath.Join(dir, "fleet.db")); n != 0 {
		t.Errorf("fleet.db has %d studies after the refused merge", n)
	}
	for _, format := range []string{"table", "html", "json"} {
		res := runIn(t, dir, "report", "--db", "pi3.db", "--format", format)
		if res.code == ExitCrash || (res.code != ExitOK && !strings.Contains(res.stderr, want)) {
			t.Errorf("report --format %s: exit %d; want no crash, and an error naming %s\n%s", format, res.code, want, res.stderr)
		}
	}
}
