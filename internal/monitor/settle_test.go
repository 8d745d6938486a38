package monitor

import (
	"context"
	"testing"
	"time"
)

// TestSettlerSaysWhatItWaitsFor: a host that never gets quiet enough (a
// threshold of 0) is waited for up to Max, and OnWait hears the load and
// the time waited after every busy window (issue 27 item 5).
func TestSettlerSaysWhatItWaitsFor(t *testing.T) {
	var waits []time.Duration
	s := Settler{Threshold: 0, Window: 50 * time.Millisecond, Max: 300 * time.Millisecond,
		OnWait: func(busy float64, waited time.Duration) {
			if busy < 0 || busy > 1 {
				t.Errorf("busy %v is not a fraction", busy)
			}
			waits = append(waits, waited)
		}}
	got := s.Settle(context.Background())
	if got["settle"] == "" || got["settle_ms"] == "" {
		t.Errorf("settings %v: want the wait and that the host stayed busy", got)
	}
	if len(waits) == 0 {
		t.Fatalf("OnWait never heard in a 300 ms wait of 50 ms windows (%d)", len(waits))
	}
	for i := 1; i < len(waits); i++ {
		if waits[i] <= waits[i-1] {
			t.Errorf("waited %v then %v: not growing", waits[i-1], waits[i])
		}
	}
}
