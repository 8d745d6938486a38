// Package workloadtest has helpers for testing workloads, as net/http/httptest
// has for handlers.
package workloadtest

import (
	"fmt"
	"strconv"
	"sync"
	"testing"
)

// Recorder is a workload.Emitter (and SeriesEmitter) that keeps what it
// is given; safe for a workload's goroutines. Its zero value is ready.
type Recorder struct {
	mu      sync.Mutex
	Samples map[string][]float64
	Notes   map[string]string
	// SeriesValues are the series by name, their chunks concatenated;
	// SeriesOrder their names in the order they first came.
	SeriesValues map[string][]float64
	SeriesOrder  []string
}

// Series implements workload.SeriesEmitter.
func (r *Recorder) Series(name, _ string, values []float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.SeriesValues == nil {
		r.SeriesValues = map[string][]float64{}
	}
	if _, ok := r.SeriesValues[name]; !ok {
		r.SeriesOrder = append(r.SeriesOrder, name)
	}
	r.SeriesValues[name] = append(r.SeriesValues[name], values...)
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

// Last is the metric's last sample, 0 when there is none.
func (r *Recorder) Last(metric string) float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v := r.Samples[metric]; len(v) > 0 {
		return v[len(v)-1]
	}
	return 0
}

// LastSamples is every metric's last sample.
func (r *Recorder) LastSamples() map[string]float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]float64{}
	for m, v := range r.Samples {
		out[m] = v[len(v)-1]
	}
	return out
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
