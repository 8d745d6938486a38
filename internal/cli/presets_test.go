package cli

import (
	"testing"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/study"
)

// TestEveryPresetValidates checks each shipped study against the real
// workloads and environments, so a preset can never fail on a typo.
func TestEveryPresetValidates(t *testing.T) {
	for _, name := range study.Presets() {
		t.Run(name, func(t *testing.T) {
			s, err := study.Preset(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(env.Names()); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Plan(1); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestEveryPresetNamesTranscribedPublishedValues: each preset's paper id
// has its values in internal/report/papers, so --compare-paper works for
// every preset (issue 14 item 2).
func TestEveryPresetNamesTranscribedPublishedValues(t *testing.T) {
	for _, name := range study.Presets() {
		s, err := study.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Paper == nil || s.Paper.ID == "" {
			t.Errorf("%s: names no paper", name)
			continue
		}
		if err := checkPaperID(s); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
