package store

import (
	"context"
	"path/filepath"
	"testing"
)

// oneHourAt100Hz is a one-hour rt.periodic run: 360 000 slices x 5 series.
func oneHourAt100Hz() []Series {
	var out []Series
	for k, name := range []string{"oh1_ns", "work_ns", "oh2_ns", "sleep_ns", "latency_ns"} {
		v := make([]float64, 360000)
		for i := range v {
			v[i] = float64((i*7919+k*104729)%100000) + 8e6
		}
		out = append(out, Series{Name: name, Unit: "ns", Values: v})
	}
	return out
}

// BenchmarkFinishRunOneHourSeries stores a one-hour 100 Hz run's series
// (14.4 MB of float64) in one run's transaction, as the runner does.
func BenchmarkFinishRunOneHourSeries(b *testing.B) {
	ctx := context.Background()
	s := openForTest(b, Open, filepath.Join(b.TempDir(), "b.db"))
	series := oneHourAt100Hz()
	runs := make([]Run, b.N)
	for i := range runs {
		runs[i] = Run{Seq: i, CellKey: "rt", Workload: "rt.periodic", Env: "native", Levels: map[string]string{}, Params: map[string]any{}}
	}
	if err := s.CreateStudy(ctx, &Study{Name: "b", SpecYAML: "name: b\n"}, runs); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(5 * 360000 * 8)
	b.ResetTimer()
	for i := range runs {
		runs[i].Status = RunOK
		if err := s.FinishRun(ctx, &runs[i], nil, series); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadOneHourSeries reads the five series of a one-hour run back.
func BenchmarkReadOneHourSeries(b *testing.B) {
	ctx := context.Background()
	s := openForTest(b, Open, filepath.Join(b.TempDir(), "b.db"))
	runs := []Run{{CellKey: "rt", Workload: "rt.periodic", Env: "native", Levels: map[string]string{}, Params: map[string]any{}}}
	if err := s.CreateStudy(ctx, &Study{Name: "b", SpecYAML: "name: b\n"}, runs); err != nil {
		b.Fatal(err)
	}
	runs[0].Status = RunOK
	series := oneHourAt100Hz()
	if err := s.FinishRun(ctx, &runs[0], nil, series); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(5 * 360000 * 8)
	b.ResetTimer()
	for range b.N {
		for _, sr := range series {
			got, err := s.ReadSeries(ctx, runs[0].ID, sr.Name)
			if err != nil || len(got.Values) != 360000 {
				b.Fatalf("%d values, %v", len(got.Values), err)
			}
		}
	}
}
