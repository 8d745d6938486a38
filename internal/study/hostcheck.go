package study

import (
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/workload"
)

// CheckHost refuses, before a study starts, workloads (measured or
// background) whose host programs are not installed here, naming the
// package that installs each (issue 15 item 14: iot.ingest without
// redis-server failed its runs one by one). Call it after Validate.
func (s *Spec) CheckHost() error {
	cells, err := s.Cells()
	if err != nil {
		return err
	}
	var errs []string
	seen := map[string]bool{}
	check := func(name string, params workload.Params, pos Pos) {
		wl, err := workload.Lookup(name)
		if err != nil {
			return
		}
		if err := workload.CheckHost(wl, params); err != nil {
			msg := (&SpecError{File: s.file, Pos: pos, Msg: fmt.Sprintf("workload %s: %v", name, err)}).Error()
			if !seen[msg] {
				seen[msg] = true
				errs = append(errs, msg)
			}
		}
	}
	pos := map[string]Pos{}
	for _, w := range s.Workloads {
		pos[w.Name] = w.Pos
	}
	for _, c := range cells {
		check(c.Workload, c.Params, pos[c.Workload])
	}
	for _, f := range s.Factors {
		for _, bg := range f.Background {
			if bg == nil {
				continue
			}
			wl, err := workload.Lookup(bg.Workload)
			if err != nil {
				continue
			}
			params, _, err := workload.Prepare(wl, bg.Params)
			if err != nil {
				continue
			}
			check(bg.Workload, params, f.Pos)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	if s.file == "--cmd" {
		// the user's own program: --workloads does not apply (issue 42, 19)
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return fmt.Errorf("%s\n(or leave the workload out with --workloads)", strings.Join(errs, "\n"))
}
