package mqtt

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/boxtax/boxtax/internal/workload"
)

// recorder keeps what a workload reports.
type recorder struct {
	mu      sync.Mutex
	samples map[string][]float64
	notes   map[string]string
}

func (r *recorder) Sample(m string, v float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.samples == nil {
		r.samples = map[string][]float64{}
	}
	r.samples[m] = append(r.samples[m], v)
}

func (r *recorder) Note(k, v string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.notes == nil {
		r.notes = map[string]string{}
	}
	r.notes[k] = v
}

func (r *recorder) one(t *testing.T, m string) float64 {
	t.Helper()
	v := r.samples[m]
	if len(v) != 1 {
		t.Fatalf("%s sampled %d times, want once (samples %v)", m, len(v), r.samples)
	}
	return v[0]
}

// requireMosquitto returns the mosquitto path, skipping when it is absent
// (failing in CI, which installs it).
func requireMosquitto(t *testing.T) string {
	t.Helper()
	p := findMosquitto()
	if p == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("mosquitto is not installed: CI must install it (apt-get install mosquitto)")
		}
		t.Skip("mosquitto is not installed here")
	}
	return p
}

// TestLoopback runs both sides over loopback against each broker, at each
// QoS, one at a time and with a window, with subscribers.
func TestLoopback(t *testing.T) {
	cases := []struct {
		name   string
		params workload.Params
	}{
		{"mosquitto qos1", workload.Params{"broker": "mosquitto", "duration": "300ms", "clients": 3}},
		{"mosquitto qos0 subs", workload.Params{"broker": "mosquitto", "duration": "300ms", "qos": 0, "subscribers": 2, "rate": 2000}},
		{"mosquitto qos1 window subs", workload.Params{"broker": "mosquitto", "duration": "300ms", "clients": 2, "inflight": 16, "subscribers": 1}},
		{"mosquitto qos2 subs", workload.Params{"broker": "mosquitto", "duration": "300ms", "qos": 2, "subscribers": 1}},
		{"mosquitto qos2 window", workload.Params{"broker": "mosquitto", "duration": "300ms", "qos": 2, "inflight": 8}},
		{"mosquitto count", workload.Params{"broker": "mosquitto", "messages": 500, "clients": 2, "rate": 5000}},
		{"embedded qos1 subs", workload.Params{"broker": "embedded", "duration": "300ms", "clients": 3, "subscribers": 2}},
		{"embedded qos2 window subs", workload.Params{"broker": "embedded", "duration": "300ms", "qos": 2, "inflight": 8, "subscribers": 1}},
		{"embedded qos0", workload.Params{"broker": "embedded", "duration": "300ms", "qos": 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if strings.HasPrefix(c.name, "mosquitto") {
				requireMosquitto(t)
			}
			p, err := workload.Prepare(Pub{}, c.params)
			if err != nil {
				t.Fatal(err)
			}
			r := &recorder{}
			if err := (Pub{}).Run(context.Background(), p, workload.Env{}, r); err != nil {
				t.Fatalf("Run: %v", err)
			}
			t.Logf("samples %v notes %v", r.samples, r.notes)
		})
	}
}
