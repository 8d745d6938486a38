package study

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/engines"
	"github.com/boxtax/boxtax/internal/study/launch"
	"github.com/boxtax/boxtax/internal/study/rounds"
	"github.com/boxtax/boxtax/internal/termtext"
	"github.com/boxtax/boxtax/internal/workload"
)

// DefaultRepetitions and DefaultWarmup apply when a spec leaves them out.
const (
	DefaultRepetitions = 3
	DefaultWarmup      = 1
)

// Validate checks a normalized spec (Normalize) against the registered
// workloads and the given environment names and reports every problem with
// its place in the file. It changes nothing.
func (s *Spec) Validate(envNames []string) error {
	var errs []string
	bad := func(p Pos, format string, a ...any) {
		errs = append(errs, (&SpecError{File: s.file, Pos: p, Msg: fmt.Sprintf(format, a...)}).Error())
	}
	if strings.TrimSpace(s.Name) == "" {
		bad(Pos{}, "the study needs a name")
	}
	if s.Warmup == nil || s.Repetitions == 0 || (s.Baseline == "" && len(s.Envs) > 0) {
		bad(Pos{}, "the spec is not normalized: call Normalize before Validate")
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	if s.Repetitions < 0 || s.Repetitions > rounds.MaxAdaptiveRepetitions {
		bad(Pos{}, "repetitions must be 1 to %d, not %d", rounds.MaxAdaptiveRepetitions, s.Repetitions)
	}
	s.validatePaper(bad)
	s.validateAdaptive(bad)
	if *s.Warmup < 0 || *s.Warmup > MaxWarmup {
		bad(Pos{}, "warmup must be 0 to %d, not %d", MaxWarmup, *s.Warmup)
	}
	if len(s.Envs) == 0 {
		bad(Pos{}, "no environments: list some under envs (valid: %s)", strings.Join(envNames, ", "))
	}
	seenEnv := map[string]string{}  // by canonical name, the name as written
	invalidEnv := map[string]bool{} // as written, already reported
	for _, e := range s.Envs {
		written := e.written()
		if base := env.BaseName(e.Name); base != e.Name && slices.Contains(envNames, base) {
			// An environment with options: Normalize named it canonically
			// when it could; when not, here is why.
			if _, err := engines.Check(e.Name); err != nil {
				bad(e.Pos, "%v", err)
				invalidEnv[written] = true
				continue
			}
		} else if !slices.Contains(envNames, e.Name) {
			bad(e.Pos, "unknown environment %q%s; valid environments: %s", e.Name, termtext.DidYouMean(e.Name, envNames), strings.Join(envNames, ", "))
			invalidEnv[written] = true
			continue
		}
		if first, dup := seenEnv[e.Name]; dup {
			if first == written {
				bad(e.Pos, "environment %q is listed twice", written)
			} else {
				bad(e.Pos, "environments %q and %q are the same environment, %s (the same options in another order or spelling, or options that restate its default): list it once",
					first, written, e.Name)
			}
			continue
		}
		seenEnv[e.Name] = written
	}
	s.checkBaseline(seenEnv, invalidEnv, bad)
	if len(s.Workloads) == 0 {
		bad(Pos{}, "no workloads: list some under workloads (valid: %s)", strings.Join(workload.Names(), ", "))
	}
	infos := map[string]workload.Info{}
	for _, w := range s.Workloads {
		wl, err := workload.Lookup(w.Name)
		if err != nil {
			bad(w.Pos, "%v", err)
			continue
		}
		if _, dup := infos[w.Name]; dup {
			bad(w.Pos, "workload %q is listed twice; vary its parameters with a factor instead", w.Name)
		}
		infos[w.Name] = wl.Info()
		for name, v := range w.Params {
			if !finite(v) {
				bad(w.Pos, "workload %s: parameter %s is %v; give a finite number", w.Name, name, v)
			}
		}
		// A factor that sets one of its parameters gives it a value in
		// every cell: its first level stands in here (Cells checks them all).
		params := workload.Params{}
		for k, v := range w.Params {
			params[k] = v
		}
		for _, f := range s.Factors {
			if f.setsParam() && len(f.Levels) > 0 && f.appliesTo(wl.Info()) {
				if !hasParam(params, f.param()) {
					setParam(params, f.param(), f.value(f.Levels[0]))
				}
			}
		}
		if _, _, err := workload.Prepare(wl, params); err != nil {
			bad(w.Pos, "%v", err)
		}
	}
	seenFactor := map[string]bool{"env": true, "workload": true}
	for _, f := range s.Factors {
		if f.Name == "" {
			bad(f.Pos, "a factor needs a name")
			continue
		}
		if seenFactor[f.Name] {
			bad(f.Pos, "factor name %q is taken", f.Name)
		}
		seenFactor[f.Name] = true
		if len(f.Levels) == 0 {
			bad(f.Pos, "factor %q has no levels", f.Name)
		}
		seenLevel := map[string]string{} // by value, the level as written
		for _, lv := range f.Levels {
			name := fmt.Sprint(lv)
			if first, dup := seenLevel[levelValue(lv)]; dup && first == name {
				bad(f.Pos, "factor %q lists level %q twice: identical cells would count as replication", f.Name, name)
			} else if dup {
				bad(f.Pos, "factor %q lists levels %q and %q, the same duration: identical cells would count as replication; keep one", f.Name, first, name)
			} else {
				seenLevel[levelValue(lv)] = name
			}
			if !finite(lv) {
				bad(f.Pos, "factor %q: level %v is not a finite number", f.Name, lv)
			}
		}
		f.validateValues(bad)
		applies := 0
		for _, w := range s.Workloads {
			info, ok := infos[w.Name]
			if ok && f.appliesTo(info) {
				applies++
			}
		}
		for _, name := range f.Workloads {
			if _, ok := infos[name]; !ok {
				bad(f.Pos, "factor %q names workload %q, which the study does not run", f.Name, name)
			}
		}
		if f.Name == launch.InstancesFactor {
			for _, lv := range f.Levels {
				if n, err := strconv.Atoi(fmt.Sprint(lv)); err != nil || n < 1 || n > MaxInstances {
					bad(f.Pos, "factor instances: level %v is not a whole number from 1 to %d", lv, MaxInstances)
				}
			}
		} else if f.Name == launch.WireFactor {
			s.validateWire(f, bad)
		} else if f.Background != nil {
			for _, lv := range f.Levels {
				name := fmt.Sprint(lv)
				bg, ok := f.Background[name]
				if !ok {
					bad(f.Pos, "background factor %q: level %q is not under background (give it an entry, empty for nothing)", f.Name, name)
					continue
				}
				if bg == nil {
					continue
				}
				wl, err := workload.Lookup(bg.Workload)
				if err != nil {
					bad(f.Pos, "background factor %q, level %q: %v", f.Name, name, err)
					continue
				}
				if _, _, err := workload.Prepare(wl, bg.Params); err != nil {
					bad(f.Pos, "background factor %q, level %q: %v", f.Name, name, err)
				}
			}
		} else if applies == 0 {
			bad(f.Pos, "factor %q sets parameter %q, which none of its workloads has", f.Name, f.param())
		}
	}
	s.validatePlacement(bad)
	if len(errs) == 0 {
		// Factor levels become parameter values: check every cell's.
		cells, err := s.Cells()
		if err != nil {
			bad(Pos{}, "%v", err)
		}
		for _, c := range cells {
			if n, err := strconv.Atoi(fmt.Sprint(c.Params["threads"])); err == nil && n > MaxThreads {
				bad(Pos{}, "workload %s in cell %s: threads %d is more than %d", c.Workload, c.Key(), n, MaxThreads)
				break
			}
		}
		if runs := len(cells) * (s.Repetitions + *s.Warmup); runs > MaxRuns {
			bad(Pos{}, "%d cells x %d rounds make %d runs, more than %d: run fewer levels or repetitions", len(cells), s.Repetitions+*s.Warmup, runs, MaxRuns)
		}
		s.validateMemory(cells, bad)
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}

// EnvNames lists the study's environments in the order written.
func (s *Spec) EnvNames() []string {
	var out []string
	for _, e := range s.Envs {
		out = append(out, e.Name)
	}
	return out
}

// setsParam tells a factor that sets a workload parameter from the reserved
// and background factors, which change how the run is carried out instead.
func (f Factor) setsParam() bool {
	return f.Background == nil && f.Name != launch.InstancesFactor && f.Name != launch.PlacementFactor && f.Name != launch.WireFactor
}

func (f Factor) param() string {
	if f.Param != "" {
		return f.Param
	}
	return f.Name
}

func (f Factor) appliesTo(info workload.Info) bool {
	if len(f.Workloads) > 0 && !slices.Contains(f.Workloads, info.Name) {
		return false
	}
	if !f.setsParam() {
		return f.Name != launch.WireFactor || launch.IsNetwork(info.Name)
	}
	name, _, _ := strings.Cut(f.param(), ".")
	for _, p := range info.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// Bounds on a study's size, so that a typo (repetitions: 2000000000) is an
// error before anything is planned or stored, not hours of work or a full
// disk.
const (
	MaxWarmup    = 100
	MaxInstances = 1024
	MaxRuns      = 1_000_000
	MaxThreads   = 4096 // a workload's threads parameter: each is an OS thread
)

// levelValue is what a factor level means, for finding levels that are
// the same: a duration written with a unit (100ms, 0.1s, 100000us) is its
// length, anything else its text (issue 25, item 15).
func levelValue(lv any) string {
	if text, ok := lv.(string); ok && strings.ContainsAny(text, "nsuµmh") {
		if d, err := time.ParseDuration(strings.TrimSpace(text)); err == nil {
			return "duration " + d.String()
		}
	}
	return fmt.Sprint(lv)
}

// finite says whether a parameter or level is not a NaN or infinite float
// (YAML's .nan and .inf), which no workload can use and the store cannot hold.
func finite(v any) bool {
	switch x := v.(type) {
	case float64:
		return !math.IsNaN(x) && !math.IsInf(x, 0)
	case float32:
		return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0)
	}
	return true
}
