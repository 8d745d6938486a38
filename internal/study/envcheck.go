package study

import (
	"context"
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/workload"
)

// CheckEnvs refuses, before the first run, a study whose cells an
// environment cannot start: the user's image is not on the engine, a
// --file link leads out of its directory (env.SpecChecker). Such a cell
// failed every run in its environment while native succeeded: 6 of 9 runs
// failed and the study exited 3 (issue 25, item 14). Options this host
// cannot give (a cpuset of CPUs it lacks, a cpus quota above its CPUs,
// apparmor with AppArmor off) are refused earlier, by the environment's
// Available. Call it with the environments made and prepared.
func (s *Spec) CheckEnvs(ctx context.Context, envs map[string]env.Environment) error {
	cells, err := s.Cells()
	if err != nil {
		return err
	}
	var errs []string
	seen, asked := map[string]bool{}, map[string]bool{}
	for _, c := range cells {
		checker, ok := envs[c.Env].(env.SpecChecker)
		if !ok {
			continue
		}
		wl, err := workload.Lookup(c.Workload)
		if err != nil {
			return err
		}
		spec, err := workerSpecOf(wl, c.Workload, c.Params)
		if err != nil {
			return fmt.Errorf("workload %s: %w", c.Workload, err)
		}
		// Cells of one environment differ mostly in their arguments, which
		// no check reads: ask once per image, programs, files and what
		// the worker needs of the kernel (gVisor refuses real-time).
		key := strings.Join([]string{c.Env, spec.Image, strings.Join(spec.HostPrograms, ","), strings.Join(spec.HostFiles, ","),
			strings.Join(spec.CapAdd, ","), fmt.Sprint(spec.CPURealtimeRuntimeUs)}, "\x00")
		if asked[key] {
			continue
		}
		asked[key] = true
		if err := checker.CheckSpec(ctx, spec); err != nil {
			msg := fmt.Sprintf("environment %s cannot run workload %s: %v", c.Env, c.Workload, err)
			if !seen[msg] {
				seen[msg] = true
				errs = append(errs, msg)
			}
		}
	}
	if len(errs) > 0 && s.file == "--cmd" { // no workload to leave out (issue 42, 19)
		return fmt.Errorf("%s\n(or leave the environment out with --envs)", strings.Join(errs, "\n"))
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s\n(or leave the environment out with --envs, or the workload with --workloads)", strings.Join(errs, "\n"))
	}
	return nil
}
