package study

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/boxtax/boxtax/internal/termtext"
	"github.com/boxtax/boxtax/internal/workload"
)

//go:embed presets/*.yaml
var presetFS embed.FS

// DefaultPreset is the study `boxtax run` runs without arguments.
const DefaultPreset = "quick"

// Presets lists the names of the studies shipped inside the binary.
func Presets() []string {
	entries, _ := fs.ReadDir(presetFS, "presets")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
}

// Preset parses a shipped study by name.
func Preset(name string) (*Spec, error) {
	data, err := presetFS.ReadFile(path.Join("presets", name+".yaml"))
	if err != nil {
		return nil, fmt.Errorf("unknown study %q%s; presets: %s (or give a path to a YAML file)", name, termtext.DidYouMean(name, Presets()), strings.Join(Presets(), ", "))
	}
	return ParseSpec("preset "+name, data)
}

// MaxStudyBytes bounds a study file: the largest shipped study is a few
// KiB, so anything near this is not a study (/dev/zero, a log, a disk
// image) and is refused before it fills the memory.
const MaxStudyBytes = 4 << 20

// Load reads a study: a path to a YAML file, or the name of a preset. A
// file is read up to MaxStudyBytes, and only while ctx lasts (a FIFO or a
// device may never end).
func Load(ctx context.Context, nameOrPath string) (*Spec, error) {
	if nameOrPath == "" {
		nameOrPath = DefaultPreset
	}
	looksLikeFile := strings.ContainsAny(nameOrPath, `/\`) || strings.HasSuffix(nameOrPath, ".yaml") || strings.HasSuffix(nameOrPath, ".yml")
	data, err := readStudyFile(ctx, nameOrPath)
	switch {
	case err == nil:
		return ParseSpec(nameOrPath, data)
	case looksLikeFile || !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("reading study %s: %w", nameOrPath, err)
	}
	return Preset(nameOrPath)
}

// readStudyFile reads at most MaxStudyBytes of the file at path, giving up
// when ctx ends; the read is then left to end with the process.
func readStudyFile(ctx context.Context, path string) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			done <- result{nil, err}
			return
		}
		defer f.Close()
		data, err := io.ReadAll(io.LimitReader(f, MaxStudyBytes+1))
		if err == nil && len(data) > MaxStudyBytes {
			err = fmt.Errorf("it is larger than %d MiB, which no study is: give the path of a study's YAML file (boxtax list studies shows the presets)", MaxStudyBytes>>20)
		}
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Overrides are command-line changes to a spec.
type Overrides struct {
	Envs        []string // keep only these environments, in this order
	Workloads   []string // keep only these workloads
	Repetitions int      // 0: as in the spec
	Warmup      int      // -1: as in the spec
	Seed        int64    // 0: as in the spec
}

// Apply changes the spec as the overrides say. Names are checked later by Validate.
func (o Overrides) Apply(s *Spec) {
	if len(o.Envs) > 0 {
		s.Envs = nil
		for _, e := range o.Envs {
			s.Envs = append(s.Envs, Named{Name: e})
		}
		if !slices.Contains(o.Envs, s.Baseline) {
			s.Baseline = ""
		}
	}
	if len(o.Workloads) > 0 {
		byName := map[string]WorkloadSpec{}
		for _, w := range s.Workloads {
			byName[w.Name] = w
		}
		s.Workloads = nil
		for _, name := range o.Workloads {
			w, ok := byName[name]
			if !ok {
				w = WorkloadSpec{Name: name}
			}
			s.Workloads = append(s.Workloads, w)
		}
		s.Factors = factorsFor(s.Factors, o.Workloads)
		if s.Paper != nil {
			s.Paper.Deviations = slices.DeleteFunc(slices.Clone(s.Paper.Deviations), func(d Deviation) bool {
				return d.Workload != "" && !slices.Contains(o.Workloads, d.Workload)
			})
		}
	}
	if o.Repetitions > 0 {
		s.Repetitions = o.Repetitions
		s.Budget = 0 // a count asked: no rounds until decided
	}
	if o.Warmup >= 0 {
		w := o.Warmup
		s.Warmup = &w
	}
	if o.Seed != 0 {
		s.Seed = o.Seed
	}
}

// factorsFor keeps the factors that still apply once only the given
// workloads run: a factor limited to workloads that no longer run is dropped,
// and so is one whose parameter none of the remaining workloads has.
func factorsFor(factors []Factor, kept []string) []Factor {
	var out []Factor
	for _, f := range factors {
		if len(f.Workloads) > 0 {
			var still []string
			for _, w := range f.Workloads {
				if slices.Contains(kept, w) {
					still = append(still, w)
				}
			}
			if len(still) == 0 {
				continue
			}
			f.Workloads = still
		}
		applies := false
		for _, name := range kept {
			if wl, err := workload.Lookup(name); err != nil || f.appliesTo(wl.Info()) {
				applies = true // unknown names are reported by Validate
			}
		}
		if applies {
			out = append(out, f)
		}
	}
	return out
}
