package study

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/boxtax/boxtax/internal/study/rounds"
)

// Spec is a study as written in YAML.
type Spec struct {
	Name        string         `yaml:"name"`
	Description string         `yaml:"description,omitempty"`
	Repetitions int            `yaml:"repetitions"`
	Warmup      *int           `yaml:"warmup,omitempty"` // nil: DefaultWarmup
	Seed        int64          `yaml:"seed,omitempty"`   // 0: drawn at random and recorded
	Baseline    string         `yaml:"baseline,omitempty"`
	CPUs        string         `yaml:"cpus,omitempty"` // CPUs the placement factor uses, e.g. 0-3; default all online
	Envs        []Named        `yaml:"envs"`
	Workloads   []WorkloadSpec `yaml:"workloads"`
	Factors     []Factor       `yaml:"factors,omitempty"`
	// Paper names the published study this spec reproduces, if any.
	Paper *PaperRef `yaml:"paper,omitempty"`
	// Adaptive, when set, adds rounds after the first Repetitions until the
	// overheads are known to the precision asked (--reps auto).
	Adaptive *rounds.Adaptive `yaml:"adaptive,omitempty"`
	// Budget, when set, makes the study adaptive within this much time:
	// rounds are added until every cell is decided or the next round would
	// end past it (--budget; Stopping).
	Budget rounds.Budget `yaml:"budget,omitempty"`

	file string // where the spec came from, for messages
	// planNotes are said under the plan line: what a --cmd study brings
	// into the image unasked (cmdfiles.go).
	planNotes []string
}

// PaperRef ties a study to the published one it reproduces: the id of its
// transcribed values (internal/report/papers/ID.yaml, for --compare-paper)
// and how many repetitions the paper made, which `--reps paper` runs and
// every report prints beside this study's own count.
type PaperRef struct {
	ID          string `yaml:"id,omitempty"`          // published values in internal/report/papers (optional)
	Repetitions int    `yaml:"repetitions,omitempty"` // the paper's repetition count
	// Deviations state where the spec departs from the paper's method, and why.
	Deviations []Deviation `yaml:"deviations,omitempty"`
	Pos        Pos         `yaml:"-"`
}

// UnmarshalYAML records where the paper was written.
func (p *PaperRef) UnmarshalYAML(v *yaml.Node) error {
	type plain PaperRef
	return decodeStrictAt(v, (*plain)(p), &p.Pos)
}

// Pos is a place in the spec's source, for messages.
type Pos struct{ Line, Column int }

// Named is a name with the place it was written.
type Named struct {
	Name    string
	Pos     Pos
	Written string // the name as written, when Normalize renamed it
}

// UnmarshalYAML records where the name was written.
func (n *Named) UnmarshalYAML(v *yaml.Node) error {
	n.Pos = Pos{v.Line, v.Column}
	return v.Decode(&n.Name)
}

// MarshalYAML writes the bare name.
func (n Named) MarshalYAML() (any, error) { return n.Name, nil }

// WorkloadSpec names a workload and sets its parameters. In YAML it is
// either a bare name or a mapping with name and params.
type WorkloadSpec struct {
	Name   string         `yaml:"name"`
	Params map[string]any `yaml:"params,omitempty"`
	Pos    Pos            `yaml:"-"`
}

// UnmarshalYAML accepts a bare name or a mapping.
func (w *WorkloadSpec) UnmarshalYAML(v *yaml.Node) error {
	w.Pos = Pos{v.Line, v.Column}
	if v.Kind == yaml.ScalarNode {
		return v.Decode(&w.Name)
	}
	type plain WorkloadSpec
	return decodeStrictAt(v, (*plain)(w), &w.Pos)
}

// Factor varies a workload parameter over levels; every level makes its own
// cells. It applies to the workloads listed, or to every workload that has
// the parameter. A param such as placeholders.threads sets one key of a
// mapping parameter (setParam).
type Factor struct {
	Name      string   `yaml:"name"`
	Param     string   `yaml:"param,omitempty"` // defaults to Name
	Levels    []any    `yaml:"levels"`
	Workloads []string `yaml:"workloads,omitempty"`
	// Values, when set, give a level's parameter value when it is not the
	// level itself: the command factor's levels are shortened commands,
	// its values the commands.
	Values map[string]any `yaml:"values,omitempty"`
	// Background, when set, makes this a background factor: each level names
	// what runs on the host beside the measured workload (a level mapped to
	// nothing, e.g. none, runs nothing). It sets no parameter.
	Background map[string]*Background `yaml:"background,omitempty"`
	Pos        Pos                    `yaml:"-"`
}

// Background is a workload run on the host, as a plain process, for as long
// as the measured run lasts: a load generator such as load.cpu.
type Background struct {
	Workload string         `yaml:"workload"`
	Params   map[string]any `yaml:"params,omitempty"`
}

// UnmarshalYAML records where the factor was written.
func (f *Factor) UnmarshalYAML(v *yaml.Node) error {
	type plain Factor
	return decodeStrictAt(v, (*plain)(f), &f.Pos)
}

// decodeStrictAt decodes v strictly (decodeStrict) into a fresh T, which
// replaces *out only when v decodes, and sets *pos to where v was written.
// A type that records its place passes its method-less copy (type plain
// X) as out, so that its UnmarshalYAML does not call itself.
func decodeStrictAt[T any](v *yaml.Node, out *T, pos *Pos) error {
	var fresh T
	if err := decodeStrict(v, &fresh); err != nil {
		return err
	}
	*out = fresh
	*pos = Pos{v.Line, v.Column}
	return nil
}

func decodeStrict(v *yaml.Node, out any) error {
	// Re-encode the node so unknown fields are caught with KnownFields.
	b, err := yaml.Marshal(v)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(out); err != nil {
		// Lines in the re-encoded node are relative to it; shift them.
		return shiftLines(err, v.Line-1)
	}
	return nil
}

var lineRe = regexp.MustCompile(`line (\d+)`)

// shiftLines moves the line numbers in yaml.v3's messages by some lines. A
// *yaml.TypeError stays one, so the outer decoder merges its entries.
func shiftLines(err error, by int) error {
	shift := func(msg string) string {
		return lineRe.ReplaceAllStringFunc(msg, func(s string) string {
			n, _ := strconv.Atoi(strings.TrimPrefix(s, "line "))
			return "line " + strconv.Itoa(n+by)
		})
	}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		out := &yaml.TypeError{}
		for _, e := range te.Errors {
			out.Errors = append(out.Errors, shift(e))
		}
		return out
	}
	return errors.New(shift(err.Error()))
}

// SpecError is a problem in a spec, with the file, line and column.
type SpecError struct {
	File string
	Pos  Pos
	Msg  string
}

func (e *SpecError) Error() string {
	switch {
	case e.Pos.Line > 0 && e.Pos.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Column, e.Msg)
	case e.Pos.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Pos.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

var (
	yamlLineRe   = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
	unknownField = regexp.MustCompile(`field (\S+) not found in type \S+`)
	goTypeName   = regexp.MustCompile(` into (\S+)$`)
)

// friendly rewrites yaml.v3's Go-flavoured wording in the user's terms.
func friendly(msg string) string {
	msg = unknownField.ReplaceAllString(msg, "unknown field $1")
	return goTypeName.ReplaceAllStringFunc(msg, func(s string) string {
		switch t := strings.TrimPrefix(s, " into "); {
		case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "*int"):
			return " where a whole number belongs"
		case strings.HasPrefix(t, "[]"):
			return " where a list belongs"
		case strings.HasPrefix(t, "map"), strings.HasPrefix(t, "study."):
			return " where a mapping belongs"
		}
		return s
	})
}

// ParseSpec reads a spec from YAML; file names the source in messages.
func ParseSpec(file string, data []byte) (*Spec, error) {
	var s Spec
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		return nil, yamlError(file, err)
	}
	s.file = file
	return &s, nil
}

// yamlError turns yaml.v3's messages ("yaml: line 3: ...", or a TypeError
// with several "line N: ..." entries) into file:line: messages.
func yamlError(file string, err error) error {
	var te *yaml.TypeError
	lines := []string{err.Error()}
	if errors.As(err, &te) {
		lines = te.Errors
	}
	var errs []error
	for _, l := range lines {
		if m := yamlLineRe.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			n, _ := strconv.Atoi(m[1])
			if strings.HasPrefix(m[2], "did not find expected") {
				// yaml.v3 reports a parser error at its context mark's
				// zero-based line: the line where the unclosed construct starts, minus one.
				n++
				m[2] += " (in what starts on this line)"
			}
			errs = append(errs, &SpecError{File: file, Pos: Pos{Line: n}, Msg: friendly(m[2])})
			continue
		}
		errs = append(errs, &SpecError{File: file, Msg: friendly(strings.TrimPrefix(l, "yaml: "))})
	}
	return errors.Join(errs...)
}

// File names where the spec came from.
func (s *Spec) File() string { return s.file }

// YAML renders the spec as it will run.
func (s *Spec) YAML() string {
	b, err := yaml.Marshal(s)
	if err != nil {
		return fmt.Sprintf("# cannot render spec: %v\n", err)
	}
	return string(b)
}
