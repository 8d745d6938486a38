package study

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	cmdwl "github.com/boxtax/boxtax/internal/workload/command"
)

// namedFiles are what --cmd, --setup and --prepare name on this host, decided before
// the study starts (issue 27): a file or directory up to
// cmdwl.MaxNamedBytes goes into the containers' image at its path (files
// keep their mode and time), and a relative one makes the program run in
// the current directory, natively and in a container, so it resolves
// the same way in both. A path too big for that, or a socket or device, is
// refused with the flags that would do; so is one the containers could
// not see the same.
type namedFiles struct {
	files   []string // absolute paths to add to the files parameter
	workdir string   // the current directory, when a relative path is named
	notes   []string // for the plan line: what goes into the image
}

// namedFiles finds the paths the commands, setup and prepare name, with
// each --param's levels in place of its {NAME} (issue 42, 9: cat {f} with
// --param f=/tmp/x,/tmp/y names both files). With --image the image is
// the user's and nothing is added.
func (c Command) namedFiles(factors []Factor) (namedFiles, error) {
	var out namedFiles
	if c.Image != "" {
		return out, nil
	}
	var argvs [][]string
	for _, line := range append(slices.Clone(c.Cmds), c.Setup, c.Prepare) {
		if argv, err := cmdwl.Split(line); err == nil && len(argv) > 0 {
			argvs = append(argvs, substituted(argv, factors)...)
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		wd = "" // relative paths are not looked for
	}
	given := absAll(c.Files)
	named := cmdwl.NamedPaths(wd, argvs...)
	roots := realAll(given)
	for _, p := range named {
		roots = append(roots, realAll([]string{p.Path})...)
	}
	var refused []string
	for _, p := range named {
		if p.Relative {
			out.workdir = wd
		}
		if under(p.Path, given) {
			continue // --file brings it
		}
		switch {
		case p.Special != "":
			refused = append(refused, fmt.Sprintf("the command names %s, a %s: no image can hold one, so it cannot run in a container as it does here; measure it natively (--envs native), or name a file instead", p.Word, p.Special))
		case insideRefused(p, roots) != "":
			refused = append(refused, insideRefused(p, roots))
		case p.Over:
			refused = append(refused, fmt.Sprintf("the command names %s, %s: more than the %s boxtax brings into the containers' image unasked; add --file %s to bring it anyway, or name a smaller one",
				p.Word, what(p), cmdwl.SizeIEC(cmdwl.MaxNamedBytes), p.Path))
		default:
			out.files = append(out.files, p.Path)
			out.notes = append(out.notes, fmt.Sprintf("adds %s (%s) to the image", p.Path, sizeOf(p)))
		}
	}
	if len(refused) > 0 {
		return namedFiles{}, fmt.Errorf("--cmd: %s", strings.Join(refused, "\n"))
	}
	if out.workdir != "" {
		out.notes = append(out.notes, fmt.Sprintf("runs the command in %s, natively and in the containers, where its relative paths resolve", out.workdir))
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
			combos *= len(f.Levels)
			combos = min(combos, maxCombinations+1)
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
		words, err := cmdwl.Substitute(argv, values, "cmd")
		if err != nil {
			words = argv // Spec refused an unknown {NAME} before
		}
		out = append(out, words)
	}
	return out
}

// what names a path that is too big: a file of 80 MiB (of 67,108,865 bytes
// when that would round to the limit), a directory of more than 64 MiB.
func what(p cmdwl.NamedPath) string {
	if p.Dir {
		return "a directory of more than " + cmdwl.SizeIEC(cmdwl.MaxNamedBytes)
	}
	return "a file of " + cmdwl.SizeAgainst(p.Bytes, cmdwl.MaxNamedBytes)
}

func sizeOf(p cmdwl.NamedPath) string {
	if p.Dir {
		return "a directory, " + cmdwl.Size(p.Bytes)
	}
	return cmdwl.Size(p.Bytes)
}

// insideRefused says why the directory p names cannot go into an image as
// it is (issue 42, 10): it holds a socket, device or named pipe, or a
// symlink leading out of it and of every other path named; "" when none.
func insideRefused(p cmdwl.NamedPath, roots []string) string {
	var specials, links, targets []string
	for _, in := range p.Inside {
		switch {
		case in.Special != "":
			specials = append(specials, fmt.Sprintf("%s, a %s", in.Path, in.Special))
		case !under(in.Target, roots):
			links = append(links, fmt.Sprintf("%s, a symlink to %s", in.Path, in.Target))
			targets = append(targets, "--file "+in.Target)
		}
	}
	more := ""
	if p.Beyond > 0 {
		more = fmt.Sprintf(", and %s more such", cmdwl.GroupDigits(int64(p.Beyond)))
	}
	switch {
	case len(specials) > 0:
		return fmt.Sprintf("the command names the directory %s, which holds %s%s: no image can hold one, so boxtax cannot bring the directory into the containers; "+
			"name the files the program needs instead of the directory (each is brought in, or use --file), or measure it natively (--envs native)", p.Word, strings.Join(specials, "; "), more)
	case len(links) > 0 && p.Beyond == 0:
		return fmt.Sprintf("the command names the directory %s, which holds %s: boxtax brings no file into the containers that is not named, so it does not follow links out of the directory; "+
			"add %s to bring what they lead to, name the files the program needs instead of the directory, or measure it natively (--envs native)", p.Word, strings.Join(links, "; "), strings.Join(targets, " "))
	case len(links) > 0:
		return fmt.Sprintf("the command names the directory %s, which holds %s%s (links out of it): boxtax brings no file into the containers that is not named, so it does not follow them; "+
			"name the files the program needs instead of the directory (each is brought in, with --file for more), or measure it natively (--envs native)", p.Word, strings.Join(links, "; "), more)
	}
	return ""
}

// realAll is the paths with their symlinks resolved, those that exist.
func realAll(paths []string) []string {
	var out []string
	for _, p := range paths {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			out = append(out, r)
		}
	}
	return out
}

// absAll is the paths made absolute against the current directory.
func absAll(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if a, err := filepath.Abs(p); err == nil {
			out = append(out, a)
		}
	}
	return out
}

// under reports whether p is one of dirs or under one.
func under(p string, dirs []string) bool {
	return slices.ContainsFunc(dirs, func(d string) bool {
		return p == d || strings.HasPrefix(p, strings.TrimSuffix(d, "/")+"/")
	})
}
