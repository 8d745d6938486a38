// Package workloadtest has helpers for testing workloads, as net/http/httptest
// has for handlers.
package workloadtest

import (
	"fmt"
	"strconv"
	"sync"
	"testing"
)

// Recorder is a workload.Emitter that keeps what it is given; safe for a
// workload's goroutines. Its zero value is ready.
type Recorder struct {
	mu      sync.Mutex
	Samples map[string][]float64
	Notes   map[string]string
}

// Sample implements workload.Emitter.
func (r *Recorder) Sample(metric string, v float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.Samples == nil {
		r.Samples = map[string][]float64{}
	}
	r.Samples[metric] = append(r.Samples[metric], v)
}

// Note implements workload.Emitter.
func (r *Recorder) Note(key, value string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.Notes == nil {
		r.Notes = map[string]string{}
	}
	r.Notes[key] = value
}

// One is the metric's one sample; the test fails when there is not exactly one.
func (r *Recorder) One(t testing.TB, metric string) float64 {
	t.Helper()
	v := r.Samples[metric]
	if len(v) != 1 {
		t.Fatalf("%s sampled %d times, want once (samples %v)", metric, len(v), r.Samples)
	}
	return v[0]
}

// NoteInt is the note as an integer; the test fails when it is not one.
func (r *Recorder) NoteInt(t testing.TB, key string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(r.Notes[key], 10, 64)
	if err != nil {
		t.Fatalf("note %s = %q: %v (notes %v)", key, r.Notes[key], err, r.Notes)
	}
	return n
}

func (r *Recorder) String() string { return fmt.Sprintf("samples %v notes %v", r.Samples, r.Notes) }
