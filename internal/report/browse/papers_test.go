package browse

import (
	"context"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/testenv"
	_ "github.com/boxtax/boxtax/internal/workload/all" // mem.stream, whose metrics the papers map to
)

// streamSource holds one study of mem.stream, which seed 000's Table III
// measured too.
type streamSource struct{}

func (streamSource) Studies(context.Context) ([]store.Study, error) { return studies[:1], nil }

func (streamSource) Open(context.Context, int64) (*study.Stored, error) {
	runs, samples := testenv.NativeAndBridgeRuns("mem.stream", "triad_MBps", "MB/s", 20000, 20100, 19900, 19000, 19100, 18900)
	spec := &study.Spec{Baseline: "native", Envs: []study.Named{{Name: "native"}, {Name: "docker-bridge"}}}
	return &study.Stored{Study: studies[0], Spec: spec, Runs: runs, Samples: samples}, nil
}

// TestStudyPageShowsThePublishedValuesItShares: the HTML page of a study
// shows the published tables that share a measured metric with it (the
// report package leaves choosing them to its caller since issue 26).
func TestStudyPageShowsThePublishedValuesItShares(t *testing.T) {
	code, body, _ := get(t, Handler(streamSource{}, "boxtax.db", true), "GET", "/study/1", "127.0.0.1:8080")
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	for _, want := range []string{`<section id="papers">`, "Table III"} {
		if !strings.Contains(body, want) {
			t.Errorf("the study page does not show %q", want)
		}
	}
}
