package papers

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/workload"
)

// Method is one setting of a paper's method that a study reproducing
// it sets too: the repetitions (no workload), a workload's parameter in
// boxtax's terms (cpu.linpack n: 1000), or the tool (param: tool, value:
// the paper's program; a study's tool is the workload it runs). Quote is
// where the paper says so.
type Method struct {
	Workload string `yaml:"workload,omitempty"`
	Param    string `yaml:"param"`
	Value    string `yaml:"value"`
	Quote    string `yaml:"quote"`
}

// ToolNone is the value of a tool setting where the paper names no tool
// for what the workload measures (or measures nothing like it): a study
// that runs the workload departs from nothing.
const ToolNone = "none"

// MethodDifference is a setting in which a study differs from its paper,
// and the reason the study states (empty when it states none).
type MethodDifference struct {
	Method Method
	Study  string // the study's value
	Reason string
}

// MethodDifferences compares a study's settings with its paper's method:
// every setting that differs, with the reason the spec states for it, and
// every stated deviation that is none (Study equal to the paper's value).
func (p Paper) MethodDifferences(s *study.Spec) (differ []MethodDifference, stale []study.Deviation) {
	for _, m := range p.Method {
		v, ok := settingOf(s, m.Workload, m.Param)
		if !ok {
			continue
		}
		d, stated := s.Deviation(m.Workload, m.Param)
		if sameSetting(v, m.Value) || (m.Param == "tool" && m.Value == ToolNone) {
			if stated {
				stale = append(stale, d)
			}
			continue
		}
		differ = append(differ, MethodDifference{Method: m, Study: v, Reason: d.Reason})
	}
	return differ, stale
}

// settingOf is a study's value of a setting: the repetitions, the workload
// run for param tool, a factor's levels (joined by ", "), the parameter as
// written, else the workload's default. ok is false when the study does not
// run the workload.
func settingOf(s *study.Spec, wl, param string) (string, bool) {
	if wl == "" {
		if param == "repetitions" {
			return strconv.Itoa(s.Repetitions), true
		}
		return "", false
	}
	var params map[string]any
	found := false
	for _, w := range s.Workloads {
		if w.Name == wl {
			params, found = w.Params, true
		}
	}
	if !found {
		// A background load: only which tool it is compares (seed001-startup
		// runs load.mixed as a load, not as the mixed-load experiment).
		for _, f := range s.Factors {
			for _, b := range f.Background {
				if b != nil && b.Workload == wl && param == "tool" {
					return wl, true
				}
			}
		}
		return "", false
	}
	if param == "tool" {
		return wl, true
	}
	for _, f := range s.Factors {
		name := f.Param
		if name == "" {
			name = f.Name
		}
		if name != param || f.Background != nil || (len(f.Workloads) > 0 && !slices.Contains(f.Workloads, wl)) {
			continue
		}
		var levels []string
		for _, l := range f.Levels {
			levels = append(levels, fmt.Sprint(l))
		}
		return strings.Join(levels, ", "), true
	}
	if v, ok := params[param]; ok {
		return fmt.Sprint(v), true
	}
	if w, err := workload.Lookup(wl); err == nil {
		for _, prm := range w.Info().Params {
			if prm.Name == param {
				return fmt.Sprint(prm.Default), true
			}
		}
	}
	return "", true
}

// sameSetting compares two settings as written, item by item (", "
// separated): numbers by value, durations by length, else case aside.
func sameSetting(a, b string) bool {
	as, bs := strings.Split(a, ","), strings.Split(b, ",")
	if len(as) != len(bs) {
		return false
	}
	for i := range as {
		x, y := strings.TrimSpace(as[i]), strings.TrimSpace(bs[i])
		if levelEqual(x, y) {
			continue
		}
		dx, errx := time.ParseDuration(x)
		dy, erry := time.ParseDuration(y)
		if errx != nil || erry != nil || dx != dy {
			return false
		}
	}
	return true
}
