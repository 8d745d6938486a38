package disk

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

func TestIOZoneParams(t *testing.T) {
	tests := []struct {
		name    string
		params  workload.Params
		wantErr string
	}{
		{"seed 004", workload.Params{"threads": 4, "file_size": "100MiB", "record_size": "32KiB"}, ""},
		{"no threads", workload.Params{"threads": 0}, "threads"},
		{"odd record", workload.Params{"record_size": 1000}, "record_size"},
		{"direct needs pages", workload.Params{"record_size": "2KiB", "file_size": "4KiB", "direct": true}, "multiple of 4096"},
		{"file not whole records", workload.Params{"file_size": "33KiB"}, "file_size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := workload.Prepare(IOZone{}, tt.params)
			workloadtest.CheckErr(t, err, tt.wantErr)
		})
	}
}

// TestIOZoneRunsEveryPhase runs the real workload on small files in a
// temporary directory: four phases, each a positive aggregate rate.
func TestIOZoneRunsEveryPhase(t *testing.T) {
	for _, fsync := range []bool{false, true} {
		p, _, err := workload.Prepare(IOZone{}, workload.Params{"threads": 3, "file_size": "2MiB", "record_size": "32KiB", "fsync": fsync})
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		var rec workloadtest.Recorder
		if err := workload.Run(context.Background(), IOZone{}, p, workload.Env{ScratchDir: dir}, &rec); err != nil {
			t.Fatal(err)
		}
		for _, ph := range iozonePhases {
			if v := rec.One(t, ph+"_KBps"); !(v > 0) {
				t.Errorf("fsync=%v: %s %v KB/s", fsync, ph, v)
			}
		}
		if left, _ := filepathGlob(dir); len(left) != 0 {
			t.Errorf("files left behind: %v", left)
		}
	}
}

func filepathGlob(dir string) ([]string, error) {
	return filepath.Glob(filepath.Join(dir, "boxtax-iozone-*"))
}
