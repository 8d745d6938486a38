package workloadtest

import (
	"context"
	"testing"

	"github.com/boxtax/boxtax/internal/workload"
)

// Run runs w with parameters p in env (workload.Run) until it ends or ctx
// does, and returns what it emitted; the test fails when the run does.
func Run(t testing.TB, ctx context.Context, w workload.Workload, p workload.Params, env workload.Env) *Recorder {
	t.Helper()
	r := &Recorder{}
	if err := workload.Run(ctx, w, p, env, r); err != nil {
		t.Fatalf("run of %s: %v", w.Info().Name, err)
	}
	return r
}
