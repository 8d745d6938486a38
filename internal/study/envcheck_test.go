package study

import (
	"context"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/engines"
)

// gVisor is the environment the checks below refuse in.
const gVisor = "podman-bridge+runtime=runsc"

// checkInGVisor normalizes and validates s for native and gVisor, then
// returns what CheckEnvs says of gVisor.
func checkInGVisor(t *testing.T, s *Spec) error {
	t.Helper()
	envs := []string{"native", gVisor}
	if err := s.Normalize(envs).Validate(envs); err != nil {
		t.Fatal(err)
	}
	e, err := engines.New(gVisor, env.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s.CheckEnvs(context.Background(), map[string]env.Environment{gVisor: e})
}

// A real-time workload in gVisor is refused before the first run, also
// when a workload that gVisor runs comes first in the environment: the
// check asks again for what a worker needs of the kernel.
func TestCheckEnvsRefusesRealTimeInGVisor(t *testing.T) {
	s, err := ParseSpec("t.yaml", []byte("name: t\nrepetitions: 1\nenvs: [native, "+gVisor+"]\nworkloads: [cpu.prime, rt.periodic]\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = checkInGVisor(t, s)
	if err == nil || !strings.Contains(err.Error(), "cannot run workload rt.periodic") || !strings.Contains(err.Error(), "no real-time scheduling") {
		t.Errorf("CheckEnvs = %v; want rt.periodic refused in gVisor", err)
	}
	if err != nil && strings.Contains(err.Error(), "workload cpu.prime") {
		t.Errorf("cpu.prime refused too: %v", err)
	}
}

// TestCheckEnvsOfACommandStudy: issue 42, 19: a --cmd study refused in an
// environment (here gVisor with a --file of a device) is not told to
// leave a workload out with --workloads, which it has no use for.
func TestCheckEnvsOfACommandStudy(t *testing.T) {
	s, err := Command{Cmds: []string{"true"}, Files: []string{"/dev/null"}}.Spec()
	if err != nil {
		t.Fatal(err)
	}
	s.Envs = []Named{{Name: "native"}, {Name: gVisor}}
	err = checkInGVisor(t, s)
	if err == nil || !strings.Contains(err.Error(), "/dev/null is a character device") || strings.Contains(err.Error(), "--workloads") {
		t.Errorf("CheckEnvs = %v; want /dev/null refused without --workloads", err)
	}
}
