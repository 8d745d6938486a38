package command

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Given is what `boxtax run --cmd` was given: the commands, the flags that
// go with them (--setup, --prepare, --parse, --cmd-timeout, --image,
// --metric, --file) and each --param NAME=V1,V2, as written.
type Given struct {
	Cmds                                  []string
	Setup, Prepare, Parse, Timeout, Image string
	Metrics, Files, Params                []string
}

// Study is the study Given describes, as plain data: the cmd workload's
// parameters, the factors (several --cmd are the levels of a factor
// named command; each --param is one that sets {NAME}), its name and what
// the plan line says under it (the files brought into the image).
type Study struct {
	Name, Description string
	File              string // "--cmd" or "--image": where the spec came from
	Workload          string
	Params            map[string]any
	Factors           []Factor
	Notes             []string
}

// Factor is a factor of a --cmd study: its levels, and a level's
// parameter value when it is not the level itself (the command factor's
// levels are shortened commands, its values the commands).
type Factor struct {
	Name, Param string
	Levels      []any
	Values      map[string]any
}

// CommandFactor is the factor of a study of several --cmd: its levels
// are the shortened commands.
const CommandFactor = "command"

// Plan reads g into a study, checking every line once: each command
// splits and is not empty, each {NAME} has a --param and each --param a
// {NAME}, each --metric reads. taken are the factor names a --param may
// not have (the study's own).
func Plan(g Given, taken []string) (*Study, error) {
	if len(g.Cmds) == 0 && g.Image == "" {
		return nil, fmt.Errorf("--metric, --file, --param, --setup, --prepare, --parse, --image and --cmd-timeout go with --cmd")
	}
	lines := map[string][]string{"cmd": g.Cmds, "setup": {g.Setup}, "prepare": {g.Prepare}}
	argvs := map[string][][]string{}
	var splitErr error
	for _, flag := range []string{"cmd", "setup", "prepare"} {
		for _, line := range lines[flag] {
			argv, err := Split(line)
			switch {
			case err != nil && splitErr == nil:
				splitErr = fmt.Errorf("--cmd: %v", err)
			case err == nil && flag == "cmd" && len(argv) == 0:
				return nil, fmt.Errorf("--cmd %s: the command is empty: give a program and its arguments, e.g. --cmd 'sysbench cpu --time=5 run'", Join([]string{line}))
			}
			argvs[flag] = append(argvs[flag], argv)
		}
	}
	if splitErr != nil {
		return nil, splitErr
	}
	for _, m := range g.Metrics {
		if _, err := ParseExtract(m); err != nil {
			return nil, fmt.Errorf("--metric: %v", err)
		}
	}
	factors, err := paramFactors(g.Params, append([]string{CommandFactor}, taken...))
	if err != nil {
		return nil, err
	}
	known := map[string]string{}
	for _, f := range factors {
		known[f.Name] = ""
	}
	for _, flag := range []string{"cmd", "setup", "prepare"} {
		for i, argv := range argvs[flag] {
			if _, err := Substitute(argv, known, flag); err != nil {
				return nil, fmt.Errorf("--%s %s: %v", flag, Join([]string{lines[flag][i]}), strings.TrimPrefix(err.Error(), "parameter "+flag+": "))
			}
		}
	}
	all := strings.Join(append(slices.Clone(g.Cmds), g.Setup, g.Prepare), "\n")
	for _, f := range factors {
		if !strings.Contains(all, "{"+f.Name+"}") {
			return nil, fmt.Errorf("--param %s: {%s} is in none of the commands, --setup or --prepare: put it where its value goes, e.g. --cmd 'sysbench cpu --threads={%s} run'", f.Name, f.Name, f.Name)
		}
	}
	params := map[string]any{}
	for k, v := range map[string]string{"setup": g.Setup, "prepare": g.Prepare, "parse": g.Parse, "timeout": g.Timeout, "image": g.Image} {
		if v != "" {
			params[k] = v
		}
	}
	var named namedFiles
	if g.Image == "" { // the image is the user's: nothing is added
		named, err = findNamedFiles(slices.Concat(argvs["cmd"], argvs["setup"], argvs["prepare"]), factors, g.Files)
		if err != nil {
			return nil, err
		}
	}
	if named.workdir != "" {
		params["workdir"] = named.workdir
	}
	for k, v := range map[string][]string{"files": append(slices.Clone(g.Files), named.files...), "metrics": g.Metrics} {
		if len(v) > 0 {
			params[k] = anyList(v) // as a YAML file gives a list
		}
	}
	s := &Study{Name: g.Image, Description: "boxtax run --image " + g.Image, File: "--image", Workload: "cmd", Params: params, Notes: named.notes}
	if len(g.Cmds) == 0 { // the image's own program, read when the study resolves its images
		s.Factors = factors
		return s, nil
	}
	names := commandLevels(g.Cmds)
	if len(g.Cmds) == 1 {
		params["cmd"] = g.Cmds[0]
	} else {
		f := Factor{Name: CommandFactor, Param: "cmd", Levels: anyList(names), Values: map[string]any{}}
		for i, line := range g.Cmds {
			f.Values[names[i]] = line
		}
		factors = append([]Factor{f}, factors...)
	}
	quoted := make([]string, len(g.Cmds))
	for i, line := range g.Cmds {
		quoted[i] = "--cmd " + Join([]string{line})
	}
	s.Name, s.Description, s.File, s.Factors = studyName(names), "boxtax run "+strings.Join(quoted, " "), "--cmd", factors
	return s, nil
}

// commandLevels are the commands' short names (Short), one each: a name
// two commands share gets (2), (3)... after it.
func commandLevels(cmds []string) []string {
	out := make([]string, len(cmds))
	seen := map[string]int{}
	for i, line := range cmds {
		name := Short(line)
		seen[name]++
		if n := seen[name]; n > 1 {
			name = fmt.Sprintf("%s (%d)", name, n)
		}
		out[i] = name
	}
	return out
}

// studyName is a --cmd study's name: its command, shortened, or its
// commands joined with " vs ", at most MaxShort characters.
func studyName(levels []string) string {
	name := strings.Join(levels, " vs ")
	if r := []rune(name); len(r) > MaxShort {
		name = strings.TrimRight(string(r[:MaxShort-3]), " ") + "..."
	}
	return name
}

// paramFactors are the factors of --param NAME=V1,V2,...: each sets
// {NAME} in the commands (the placeholders parameter). taken are the names
// a --param may not have.
func paramFactors(params, taken []string) ([]Factor, error) {
	var out []Factor
	seen := map[string]bool{}
	for _, name := range taken {
		seen[name] = true
	}
	for _, p := range params {
		name, list, ok := strings.Cut(p, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.TrimSpace(list) == "" {
			return nil, fmt.Errorf("--param %q: want NAME=V1,V2,..., e.g. --param threads=1,2,4 with {threads} in --cmd", p)
		}
		if !placeholderName.Get().MatchString(name) {
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

// maxCombinations is the most combinations of --param levels a command
// is looked at with; past it, each level is looked at once, with the other
// factors at their first level.
const maxCombinations = 1000

// substituted is argv with its {NAME}s replaced by every combination of
// the factors' levels (argv alone when it has none).
func substituted(argv []string, factors []Factor) [][]string {
	line := strings.Join(argv, "\x00")
	var used []Factor
	combos := 1
	for _, f := range factors {
		if strings.Contains(line, "{"+f.Name+"}") {
			used = append(used, f)
			combos = min(combos*len(f.Levels), maxCombinations+1)
		}
	}
	if len(used) == 0 {
		return [][]string{argv}
	}
	var sets []map[string]string
	if combos <= maxCombinations {
		sets = []map[string]string{{}}
		for _, f := range used {
			var next []map[string]string
			for _, set := range sets {
				for _, v := range f.Levels {
					m := maps.Clone(set)
					m[f.Name] = fmt.Sprint(v)
					next = append(next, m)
				}
			}
			sets = next
		}
	} else {
		for _, f := range used {
			for _, v := range f.Levels {
				m := map[string]string{}
				for _, g := range used {
					m[g.Name] = fmt.Sprint(g.Levels[0])
				}
				m[f.Name] = fmt.Sprint(v)
				sets = append(sets, m)
			}
		}
	}
	out := make([][]string, 0, len(sets))
	for _, values := range sets {
		words, err := Substitute(argv, values, "cmd")
		if err != nil {
			words = argv // Plan refused an unknown {NAME} before
		}
		out = append(out, words)
	}
	return out
}

// anyList is a list of strings as a YAML file gives it.
func anyList(v []string) []any {
	out := make([]any, len(v))
	for i, s := range v {
		out[i] = s
	}
	return out
}
