package disk

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

func TestIOZoneParams(t *testing.T) {
	workloadtest.CheckParams(t, IOZone, []workloadtest.ParamCase{
		{Name: "seed 004", Params: workload.Params{"threads": 4, "file_size": "100MiB", "record_size": "32KiB"}},
		{Name: "no threads", Params: workload.Params{"threads": 0}, WantErr: "threads"},
		{Name: "odd record", Params: workload.Params{"record_size": 1000}, WantErr: "record_size"},
		{Name: "direct needs pages", Params: workload.Params{"record_size": "2KiB", "file_size": "4KiB", "direct": true}, WantErr: "multiple of 4096"},
		{Name: "file not whole records", Params: workload.Params{"file_size": "33KiB"}, WantErr: "file_size"},
	})
}

// TestIOZoneRunsEveryPhase runs the real workload on small files in a
// temporary directory: four phases, each a positive aggregate rate.
func TestIOZoneRunsEveryPhase(t *testing.T) {
	for _, fsync := range []bool{false, true} {
		p := workloadtest.Prepare(t, IOZone, workload.Params{"threads": 3, "file_size": "2MiB", "record_size": "32KiB", "fsync": fsync})
		dir := t.TempDir()
		rec := workloadtest.Run(t, context.Background(), IOZone, p, workload.Env{ScratchDir: dir})
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
