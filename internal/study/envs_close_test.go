package study

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/engines"
)

// closingEnv counts its closes; Available fails when unavailable is set.
type closingEnv struct {
	name        string
	unavailable bool
	closes      *atomic.Int32
}

func (e closingEnv) Name() string        { return e.name }
func (e closingEnv) Description() string { return "a test environment that counts its closes" }
func (e closingEnv) Available(context.Context) error {
	if e.unavailable {
		return errors.New("not here")
	}
	return nil
}
func (e closingEnv) Prepare(context.Context) error { return nil }
func (e closingEnv) Start(context.Context, env.Spec, io.Writer, io.Writer) (env.Instance, error) {
	return nil, errors.New("not started in this test")
}
func (e closingEnv) Close(context.Context) error { e.closes.Add(1); return nil }

var testOpenCloses, testRefusedCloses atomic.Int32

func init() {
	engines.Register("test-opens", func(env.Options) env.Environment {
		return closingEnv{name: "test-opens", closes: &testOpenCloses}
	})
	engines.Register("test-refused", func(env.Options) env.Environment {
		return closingEnv{name: "test-refused", unavailable: true, closes: &testRefusedCloses}
	})
}

// A study refused because one environment cannot run here closes the
// others it opened (a Podman service each, with its socket's directory):
// runtimes with crun on a hybrid cgroup host left two behind.
func TestOpenEnvsClosesWhatItOpenedWhenRefused(t *testing.T) {
	_, err := Process{}.openEnvs(context.Background(), []string{"test-opens", "test-refused"})
	if err == nil || !strings.Contains(err.Error(), "test-refused is not available") {
		t.Fatalf("openEnvs = %v; want test-refused refused", err)
	}
	if testOpenCloses.Load() != 1 || testRefusedCloses.Load() != 1 {
		t.Errorf("closed test-opens %d and test-refused %d times, want once each", testOpenCloses.Load(), testRefusedCloses.Load())
	}
}
