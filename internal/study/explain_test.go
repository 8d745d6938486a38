package study

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestExplainAddsTheAttributionVariants: --explain adds to every
// container environment its variants with one mechanism off at a time
// and all at once, leaving out what an environment already is
// (docker-host's host network), and a --cmd study gets them as well.
func TestExplainAddsTheAttributionVariants(t *testing.T) {
	s := validSpec(t, "e.yaml", "name: e\nrepetitions: 2\nenvs: [native, docker-bridge, docker-host]\nworkloads: [test.a]\n")
	added := s.AddExplainVariants()
	want := []string{
		"native",
		"docker-bridge",
		"docker-bridge+network=host", "docker-bridge+seccomp=unconfined", "docker-bridge+storage=bind",
		"docker-bridge+network=host+seccomp=unconfined+storage=bind",
		"docker-host",
		"docker-host+seccomp=unconfined", "docker-host+storage=bind", "docker-host+seccomp=unconfined+storage=bind",
	}
	if got := s.EnvNames(); !slices.Equal(got, want) {
		t.Errorf("environments\n%v\nwant\n%v", got, want)
	}
	if len(added) != len(want)-3 {
		t.Errorf("added %v", added)
	}
	if err := s.Validate(testEnvs); err != nil {
		t.Errorf("the explained spec does not validate: %v", err)
	}
	if again := s.AddExplainVariants(); len(again) != 0 {
		t.Errorf("explaining twice added %v", again)
	}

	o := NewOptions()
	o.Command = Command{Cmds: []string{"true"}}
	o.Envs, o.Explain = []string{"native", "docker-bridge"}, true
	spec, err := o.spec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := spec.EnvNames(); len(got) != 6 || got[5] != "docker-bridge+network=host+seccomp=unconfined+storage=bind" {
		t.Errorf("--cmd true --explain runs in %v", got)
	}

	o.Envs = []string{"native"}
	if _, err := o.spec(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "--explain switches options of container environments") {
		t.Errorf("--explain with native alone: %v", err)
	}
}
