package mem

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/errtest"
	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

func TestStreamSizing(t *testing.T) {
	tests := []struct {
		name       string
		machine    string
		params     workload.Params
		want       int
		wantSizing string
		wantErr    string
	}{
		{name: "4 x 32 MiB L3", machine: "epyc-2cpu", want: 16 << 20, wantSizing: "4 x last-level cache"},
		{name: "4 x 32 MiB L3 capped at 64 MiB", machine: "epyc-2cpu", params: workload.Params{"max_array_MiB": 64}, want: 8 << 20, wantSizing: "4 x last-level cache 1 x L3, 32768 KiB in all, capped at 64.0 MiB by max_array_MiB: below STREAM's rule"},
		{name: "a cap above the rule changes nothing", machine: "epyc-2cpu", params: workload.Params{"max_array_MiB": 512}, want: 16 << 20, wantSizing: "4 x last-level cache 1 x L3, 32768 KiB in all"},
		{name: "a cap never goes below STREAM's minimum", machine: "epyc-2cpu", params: workload.Params{"max_array_MiB": 1}, want: minStreamElements, wantSizing: "4 x last-level cache 1 x L3, 32768 KiB in all, capped at 15.3 MiB"},
		{name: "a cap below STREAM's minimum caps nothing there", machine: "pi4", params: workload.Params{"max_array_MiB": 1}, want: minStreamElements, wantSizing: "STREAM minimum; last-level cache"},
		{name: "a cap leaves array_MiB alone", machine: "epyc-2cpu", params: workload.Params{"array_MiB": 200, "max_array_MiB": 64}, want: 200 << 17, wantSizing: "array_MiB parameter"},
		{name: "negative cap", machine: "epyc-2cpu", params: workload.Params{"max_array_MiB": -1}, wantErr: "max_array_MiB"},
		{name: "small L2 gets the minimum", machine: "pi4", want: minStreamElements, wantSizing: "STREAM minimum; last-level cache"},
		{name: "no cache info", machine: "no-cache-info", want: minStreamElements, wantSizing: "STREAM minimum (no cache sizes"},
		{name: "explicit size", machine: "epyc-2cpu", params: workload.Params{"array_size": 1000}, want: 1000, wantSizing: "array_size parameter"},
		{name: "76.3 MiB per array is about STREAM's 10,000,000", machine: "pi4", params: workload.Params{"array_MiB": 76.3}, want: 10_000_794, wantSizing: "array_MiB parameter"},
		{name: "MiB wins over elements", machine: "pi4", params: workload.Params{"array_MiB": "25.4", "array_size": 5}, want: 3_329_229, wantSizing: "array_MiB parameter"},
		{name: "negative MiB", machine: "pi4", params: workload.Params{"array_MiB": -1}, wantErr: "array_MiB"},
		{name: "negative size", machine: "epyc-2cpu", params: workload.Params{"array_size": -5}, wantErr: "array_size"},
		{name: "one iteration", machine: "pi4", params: workload.Params{"ntimes": 1}, wantErr: "ntimes"},
		{name: "no threads", machine: "pi4", params: workload.Params{"threads": 0}, wantErr: "threads"},
		{name: "more threads than elements", machine: "pi4", params: workload.Params{"array_size": 3, "threads": 4}, wantErr: "threads"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := workloadtest.Check(t, Stream.Info(), tt.params)
			c, err := workload.Parse(p, &streamConfig{sysRoot: filepath.Join("testdata", "sysfs", tt.machine)})
			if errtest.Want(t, err, tt.wantErr) {
				return
			}
			if c.elements != tt.want || !strings.HasPrefix(c.sizing, tt.wantSizing) {
				t.Errorf("got %d elements (%s), want %d (%s...)", c.elements, c.sizing, tt.want, tt.wantSizing)
			}
			if capped := strings.Contains(c.sizing, "capped"); capped != strings.Contains(tt.wantSizing, "capped") {
				t.Errorf("sizing %q: capped %v, want %v", c.sizing, capped, !capped)
			}
		})
	}
}

func TestStreamValidation(t *testing.T) {
	tests := []struct {
		name    string
		corrupt func(s *streamArrays)
		wantErr string
	}{
		{name: "untouched"},
		{name: "one wrong element in a", corrupt: func(s *streamArrays) { s.a[17] *= 1.001 }, wantErr: "array a"},
		{name: "NaN in b", corrupt: func(s *streamArrays) { s.b[0] = math.NaN() }, wantErr: "array b"},
		{name: "zero in c", corrupt: func(s *streamArrays) { s.c[999] = 0 }, wantErr: "array c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, threads := range []int{1, 3} {
				const ntimes = 4
				s := newStreamArrays(1000, threads)
				for k := 0; k < ntimes; k++ {
					s.iterate()
				}
				if tt.corrupt != nil {
					tt.corrupt(s)
				}
				err := s.check(ntimes)
				if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
					t.Errorf("threads=%d: error %v, want %q", threads, err, tt.wantErr)
				}
			}
		})
	}
}

func TestStreamChunks(t *testing.T) {
	for _, tt := range []struct{ n, threads int }{{10, 1}, {10, 3}, {7, 7}, {1001, 4}} {
		s := newStreamArrays(tt.n, tt.threads)
		next := 0
		for _, ch := range s.chunks {
			if ch[0] != next || ch[1] < ch[0] {
				t.Errorf("n=%d threads=%d: chunks %v are not contiguous", tt.n, tt.threads, s.chunks)
			}
			next = ch[1]
		}
		if next != tt.n || len(s.chunks) != tt.threads {
			t.Errorf("n=%d threads=%d: chunks %v", tt.n, tt.threads, s.chunks)
		}
	}
}

func TestStreamRun(t *testing.T) {
	p, _ := workload.Check(Stream.Info(), workload.Params{"array_size": 20000, "ntimes": 3, "threads": 2})
	r := workloadtest.Run(t, context.Background(), Stream, p, workload.Env{})
	for _, m := range kernelMetrics {
		if v := r.Samples[m]; len(v) != 1 || !(v[0] > 0) {
			t.Errorf("%s: %v", m, v)
		}
	}
	if r.Notes["array_size"] != "20000" {
		t.Errorf("note array_size = %q", r.Notes["array_size"])
	}
}
