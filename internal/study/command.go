package study

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	cmdwl "github.com/boxtax/boxtax/internal/workload/command"
)

// Command is a run of commands instead of a study:
// boxtax run --cmd 'sysbench cpu --time=5 run' --metric 'events/s=events per second:\s*([0-9.]+)'.
// Several --cmd are the levels of a factor named command; each --param
// NAME=V1,V2 is a factor too, its value substituted for {NAME} in the
// commands, as hyperfine does.
type Command struct {
	Cmds                                  []string
	Setup, Prepare, Parse, Timeout, Image string
	Metrics, Files, Params                []string
}

// CommandFactor is the factor of a study of several --cmd: its levels
// are the shortened commands.
const CommandFactor = "command"

// Used tells whether any of its options is set.
func (c Command) Used() bool {
	return len(c.Cmds) > 0 || c.Setup != "" || c.Prepare != "" || c.Parse != "" || c.Timeout != "" || c.Image != "" ||
		len(c.Metrics) > 0 || len(c.Files) > 0 || len(c.Params) > 0
}

// Spec is the study of a --cmd run: the cmd workload natively and in
// Docker with bridge and host networking (--envs changes them), five
// measured repetitions after a warm-up round, named after its commands
// (shortened). It is stored with the study as any study file is, so
// --resume and report read it back.
func (c Command) Spec() (*Spec, error) {
	if len(c.Cmds) == 0 && c.Image == "" {
		return nil, fmt.Errorf("--metric, --file, --param, --setup, --prepare, --parse, --image and --cmd-timeout go with --cmd")
	}
	for _, line := range c.Cmds {
		if argv, err := cmdwl.Split(line); err == nil && len(argv) == 0 {
			return nil, fmt.Errorf("--cmd %s: the command is empty: give a program and its arguments, e.g. --cmd 'sysbench cpu --time=5 run'", cmdwl.Join([]string{line}))
		}
	}
	for _, line := range append(slices.Clone(c.Cmds), c.Setup, c.Prepare) {
		if _, err := cmdwl.Split(line); err != nil {
			return nil, fmt.Errorf("--cmd: %v", err)
		}
	}
	for _, m := range c.Metrics {
		if _, err := cmdwl.ParseExtract(m); err != nil {
			return nil, fmt.Errorf("--metric: %v", err)
		}
	}
	factors, err := paramFactors(c.Params)
	if err != nil {
		return nil, err
	}
	if err := c.checkPlaceholders(factors); err != nil {
		return nil, err
	}
	lines := strings.Join(append(slices.Clone(c.Cmds), c.Setup, c.Prepare), "\n")
	for _, f := range factors {
		if !strings.Contains(lines, "{"+f.Name+"}") {
			return nil, fmt.Errorf("--param %s: {%s} is in none of the commands, --setup or --prepare: put it where its value goes, e.g. --cmd 'sysbench cpu --threads={%s} run'", f.Name, f.Name, f.Name)
		}
	}
	params := map[string]any{}
	for k, v := range map[string]string{"setup": c.Setup, "prepare": c.Prepare, "parse": c.Parse, "timeout": c.Timeout, "image": c.Image} {
		if v != "" {
			params[k] = v
		}
	}
	named, err := c.namedFiles(factors)
	if err != nil {
		return nil, err
	}
	if named.workdir != "" {
		params["workdir"] = named.workdir
	}
	for k, v := range map[string][]string{"files": append(slices.Clone(c.Files), named.files...), "metrics": c.Metrics} {
		if len(v) > 0 {
			list := make([]any, len(v)) // as a YAML file gives a list
			for i, s := range v {
				list[i] = s
			}
			params[k] = list
		}
	}
	names := commandLevels(c.Cmds)
	if len(c.Cmds) == 0 {
		return c.imageSpec(params, factors, named.notes), nil // the image's own program
	} else if len(c.Cmds) == 1 {
		params["cmd"] = c.Cmds[0]
	} else {
		f := Factor{Name: CommandFactor, Param: "cmd", Values: map[string]any{}}
		for i, line := range c.Cmds {
			f.Levels = append(f.Levels, names[i])
			f.Values[names[i]] = line
		}
		factors = append([]Factor{f}, factors...)
	}
	quoted := make([]string, len(c.Cmds))
	for i, line := range c.Cmds {
		quoted[i] = "--cmd " + cmdwl.Join([]string{line})
	}
	warmup := 1
	return &Spec{
		Name: studyName(names), Description: "boxtax run " + strings.Join(quoted, " "),
		Repetitions: 5, Warmup: &warmup, Baseline: "native",
		Envs:      []Named{{Name: "native"}, {Name: "docker-bridge"}, {Name: "docker-host"}},
		Workloads: []WorkloadSpec{{Name: "cmd", Params: params}},
		Factors:   factors,
		file:      "--cmd", planNotes: named.notes,
	}, nil
}

// checkPlaceholders refuses a {NAME} in the commands that no --param
// names, naming the known ones.
func (c Command) checkPlaceholders(factors []Factor) error {
	known := map[string]string{}
	for _, f := range factors {
		known[f.Name] = ""
	}
	flags := map[string][]string{"cmd": c.Cmds, "setup": {c.Setup}, "prepare": {c.Prepare}}
	for _, flag := range []string{"cmd", "setup", "prepare"} {
		for _, line := range flags[flag] {
			argv, _ := cmdwl.Split(line) // split before
			if _, err := cmdwl.Substitute(argv, known, flag); err != nil {
				return fmt.Errorf("--%s %s: %v", flag, cmdwl.Join([]string{line}), strings.TrimPrefix(err.Error(), "parameter "+flag+": "))
			}
		}
	}
	return nil
}

// commandLevels are the commands' short names (cmdwl.Short), one each:
// a name two commands share gets (2), (3)... after it.
func commandLevels(cmds []string) []string {
	out := make([]string, len(cmds))
	seen := map[string]int{}
	for i, line := range cmds {
		name := cmdwl.Short(line)
		seen[name]++
		if n := seen[name]; n > 1 {
			name = fmt.Sprintf("%s (%d)", name, n)
		}
		out[i] = name
	}
	return out
}

// studyName is a --cmd study's name: its command, shortened, or its
// commands joined with " vs ", at most cmdwl.MaxShort characters.
func studyName(levels []string) string {
	name := strings.Join(levels, " vs ")
	if r := []rune(name); len(r) > cmdwl.MaxShort {
		name = strings.TrimRight(string(r[:cmdwl.MaxShort-3]), " ") + "..."
	}
	return name
}

// paramName is what --param's NAME may be: a placeholder's name.
var paramName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// paramFactors are the factors of --param NAME=V1,V2,...: each sets
// {NAME} in the commands (the cmd workload's placeholders).
func paramFactors(params []string) ([]Factor, error) {
	var out []Factor
	seen := map[string]bool{CommandFactor: true, "env": true, "workload": true, InstancesFactor: true, PlacementFactor: true, WireFactor: true}
	for _, p := range params {
		name, list, ok := strings.Cut(p, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.TrimSpace(list) == "" {
			return nil, fmt.Errorf("--param %q: want NAME=V1,V2,..., e.g. --param threads=1,2,4 with {threads} in --cmd", p)
		}
		if !paramName.MatchString(name) {
			return nil, fmt.Errorf("--param %q: %q is not a name of letters, digits and _ (starting with a letter)", p, name)
		}
		if seen[name] {
			return nil, fmt.Errorf("--param %q: the name %s is taken (by another --param or a factor of boxtax's): choose another", p, name)
		}
		seen[name] = true
		f := Factor{Name: name, Param: "placeholders." + name}
		for _, v := range strings.Split(list, ",") {
			if v = strings.TrimSpace(v); v == "" {
				return nil, fmt.Errorf("--param %q: an empty value; give NAME=V1,V2,... without empty ones", p)
			}
			f.Levels = append(f.Levels, v)
		}
		out = append(out, f)
	}
	return out, nil
}

// CommandNotes are what the cmd workload says about how its cells are
// measured (a figure of the user's replacing the adapter's), each once.
func (s *Spec) CommandNotes() []string {
	cells, err := s.Cells()
	if err != nil {
		return nil
	}
	var out []string
	for _, c := range cells {
		if c.Workload != "cmd" {
			continue
		}
		for _, n := range cmdwl.Notes(c.Params) {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}
