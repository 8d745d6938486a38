package study

import "testing"

// TestThesisRTComputesUntilTheSliceShare: the thesis's task (seed 002,
// Appendix A) computes pi until 80 % of its slice has passed, so the preset
// that reproduces it must use the timed work mode, not the calibrated one.
func TestThesisRTComputesUntilTheSliceShare(t *testing.T) {
	s, err := Preset("thesis-rt")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range s.Workloads {
		t.Run(w.Name, func(t *testing.T) {
			if w.Params["work"] != "timed" {
				t.Errorf("work = %v, want timed (compute until occupancy_pct of the slice, as the thesis)", w.Params["work"])
			}
			if occ, ok := w.Params["occupancy_pct"]; ok && occ != 80 && occ != 80.0 {
				t.Errorf("occupancy_pct = %v, the thesis uses 80", occ)
			}
		})
	}
}
