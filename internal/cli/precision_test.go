package cli

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/testenv"
)

// TestStoppingRuleAgreesWithTheReport: the adaptive stopping rule, which
// study reads from the stored samples (issue 26: it built a whole report
// each round), judges every stored study as the report's precision
// verdict does, and says so in the same words.
func TestStoppingRuleAgreesWithTheReport(t *testing.T) {
	const yaml = `name: adaptive
envs: [native, docker-bridge, docker-host]
workloads: [cpu.prime]
factors: [{name: threads, levels: [1, 2]}]
repetitions: 3
warmup: 1
adaptive: {precision_pct: 5, max_repetitions: 10}
`
	tests := []struct {
		name   string
		sample func(r store.Run) []store.Sample // one run's samples
	}{
		{"tight: reached", func(r store.Run) []store.Sample {
			return prime(r, 1000+float64(r.Rep%2), 7+float64(r.Rep))
		}},
		{"wide in one environment", func(r store.Run) []store.Sample {
			v := 1000.0
			if r.Env == "docker-host" {
				v += float64(r.Rep%3) * 300
			}
			return prime(r, v, 1)
		}},
		{"a cell without its baseline figure", func(r store.Run) []store.Sample {
			if r.Env == "native" && r.Levels["threads"] == "2" {
				return []store.Sample{{Metric: "mon.cpu_pct", Value: 5, Unit: "%"}}
			}
			return prime(r, 1000, 1)
		}},
		{"every value the same", func(r store.Run) []store.Sample { return prime(r, 1000, 1) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			envs := []string{"native", "docker-bridge", "docker-host"}
			spec, err := study.ParseSpec("adaptive.yaml", []byte(yaml))
			if err != nil {
				t.Fatal(err)
			}
			if err := spec.Normalize(envs).Validate(envs); err != nil {
				t.Fatal(err)
			}
			runs, err := spec.Plan(7)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "a.db")
			st := store.Study{Name: spec.Name, SpecYAML: spec.YAML(), Seed: 7}
			testenv.FinishedStudy(t, path, &st, runs, func(r *store.Run) []store.Sample { return tt.sample(*r) })
			s, rep := storedReport(t, path, st.ID)
			got := study.PrecisionOf(s.Spec, s.Runs, s.Samples)
			if got.Reached != rep.PrecisionReached() || got.Summary != rep.PrecisionSummary() {
				t.Errorf("stopping rule: %v %q\nreport:        %v %q", got.Reached, got.Summary, rep.PrecisionReached(), rep.PrecisionSummary())
			}
		})
	}
}

// storedReport is study id in the database at path as study.Open reads
// it, and its report (not paired) as boxtax report builds it.
func storedReport(t *testing.T, path string, id int64) (*study.Stored, *report.Report) {
	t.Helper()
	s, err := study.Open(context.Background(), testenv.OpenStore(t, path), id)
	if err != nil {
		t.Fatal(err)
	}
	return s, report.FromStudy(s, false)
}

// prime is a cpu.prime run's samples: its primary figure, a secondary one
// and a host monitor's, none of the last two judged.
func prime(r store.Run, eventsPerS, eventMs float64) []store.Sample {
	return []store.Sample{
		{Metric: "events_per_s", Value: eventsPerS, Unit: "events/s"},
		{Metric: "event_time_ms", Value: eventMs * float64(1+len(r.Env)), Unit: "ms"},
		{Metric: "mon.cpu_pct", Value: float64(r.Seq % 7), Unit: "%"},
	}
}
