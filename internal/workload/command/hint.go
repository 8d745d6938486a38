package command

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/lazyre"
	"github.com/boxtax/boxtax/internal/termtext"
)

// What a program's failure in a container usually means, read from the
// reason its run failed with (its exit status and the first and last
// lines of its output): a file or library the image lacks (which --file
// brings it), a program it starts that is not there, a permission the
// container's user lacks, a script whose #! interpreter is missing.
var (
	missingLibrary = lazyre.New(`error while loading shared libraries: ([^\s:]+): cannot open shared object file`)
	missingCommand = lazyre.New(`(?:^|[\s|:])([A-Za-z0-9_.+-]+): (?:command )?not found`)
	notFound       = lazyre.New(`(?i)no such file or directory|cannot open|can't open|not found|cannot access|cannot stat|does not exist`)
	permission     = lazyre.New(`(?i)permission denied|operation not permitted`)
	badInterpreter = lazyre.New(`(?i)exec format error|bad interpreter|starting the program \S+: fork/exec \S+: no such file or directory`)
)

// What a program that succeeded may still fail a run for: a --metric that
// read no number from its output, or more output than boxtax keeps.
var (
	metricNotNumber = lazyre.New(`metric (\S+): regex (".*?") matched (".*?"), which is not a number`)
	metricNoMatch   = lazyre.New(`metric (\S+): regex (".*?") matches nothing in the program's output`)
	outputOver      = lazyre.New(`printed more than (\d+) bytes on stdout or stderr \(max_output\)`)
)

// outputHint says what to do about a run that failed for what boxtax made
// of the program's output, not for the program (issue 42, 12): "" when
// the reason is another.
func outputHint(reason string) string {
	if m := metricNotNumber.Get().FindStringSubmatch(reason); m != nil {
		return fmt.Sprintf("the program ran, but --metric %s's regex %s matched %s, which is not a number: make its group hold the number alone, e.g. ([0-9.]+)", m[1], m[2], m[3])
	}
	if m := metricNoMatch.Get().FindStringSubmatch(reason); m != nil {
		return fmt.Sprintf("the program ran, but --metric %s's regex %s matches nothing in its output: compare the regex with what the program prints when run by hand", m[1], m[2])
	}
	if m := outputOver.Get().FindStringSubmatch(reason); m != nil {
		n, _ := strconv.ParseInt(m[1], 10, 64)
		return fmt.Sprintf("the program printed more than the %s of stdout or stderr boxtax keeps (its max_output), which is not an error of the program: "+
			"send what you do not need elsewhere (e.g. --cmd 'sh -c \"PROGRAM > /dev/null\"' with --metric reading stderr), "+
			"or raise the cmd workload's parameter max_output in a study file (workloads: [{name: cmd, params: {cmd: ..., max_output: 64MiB}}])", termtext.SizeIEC(n))
	}
	return ""
}

// FailureHint implements workload.FailureHinter: what to do about a run
// that failed with reason, for what boxtax made of the program's output
// (outputHint) or, in an image or root filesystem of its own, for what the
// program lacks there (failureHint); "" when neither says.
func (c *config) FailureHint(reason string, ownFiles bool) string {
	return hintFor(reason, ownFiles, c.argv, c.files, c.workdir)
}

// FailureHint implements workload.FailureHinter for the server, which
// runs in the environment with its files.
func (s *serverConfig) FailureHint(reason string, ownFiles bool) string {
	return hintFor(reason, ownFiles, nil, s.serverSide.files, s.img.workdir)
}

// hintFor is outputHint, else failureHint in files of its own.
func hintFor(reason string, ownFiles bool, argv, files []string, wd string) string {
	if hint := outputHint(reason); hint != "" || !ownFiles {
		return hint
	}
	return failureHint(reason, argv, files, wd)
}

// failureHint says what to do about a program that failed in a container
// with reason, given its command, its files and working directory.
func failureHint(reason string, argv, files []string, wd string) string {
	if m := missingLibrary.Get().FindStringSubmatch(reason); m != nil {
		if lib := findLibrary(m[1]); lib != "" {
			return fmt.Sprintf("the program loads the library %s, which the image lacks (a library opened at run time is not linked, so boxtax cannot see it): add --file %s", m[1], lib)
		}
		return fmt.Sprintf("the program loads the library %s, which neither the image nor this host's library directories hold: install it, then add it with --file", m[1])
	}
	if badInterpreter.Get().MatchString(reason) && len(argv) > 0 {
		if i := shebang(argv[0]); len(i) > 0 {
			interp := i[len(i)-1] // the program env starts, when it finds it
			return fmt.Sprintf("%s is a script for %s, which the image lacks: add --file %s (or run the interpreter: --cmd '%s %s ...')", argv[0], interp, interp, interp, argv[0])
		}
		return fmt.Sprintf("%s cannot be started in the container (exec format error or a missing interpreter): is it a script whose #! line names a program, or a binary of another architecture?", argv[0])
	}
	var names, paths []string
	for _, m := range missingCommand.Get().FindAllStringSubmatch(reason, -1) {
		if p, err := exec.LookPath(m[1]); err == nil && !slices.Contains(names, m[1]) {
			if abs, err := filepath.Abs(p); err == nil {
				names, paths = append(names, m[1]), append(paths, abs)
			}
		}
	}
	if len(names) > 0 {
		return fmt.Sprintf("the command starts %s, not in the image (only the program itself and what it links are): add --file %s",
			strings.Join(names, " and "), strings.Join(paths, " --file "))
	}
	if notFound.Get().MatchString(reason) {
		if missing := hostPathsIn(reason, wd, append(slices.Clone(files), argv...)); len(missing) > 0 {
			return fmt.Sprintf("a file the program opens is not in the image: add --file %s", strings.Join(missing, " --file "))
		}
		return "a file or library the program needs is not in the image: add it with --file PATH (files the command names are brought in; files it finds by itself are not)"
	}
	if permission.Get().MatchString(reason) {
		return "a permission the container lacks: there the program runs as the image's user (root for an image of host files, the image's USER with --image) with only Docker's default capabilities " +
			"(a study file's cap_add asks for more), and files keep the host's modes; check the mode of what it opens, or ask for the capability it needs"
	}
	return "the program runs natively but not here: compare what it needs with what the image holds (the program, its libraries, the files the command names and --file's)"
}

// hostPathsIn are the host files the text names that exist here (relative
// ones against wd, else the current directory), but for those the image
// has: the ones a container lacked.
func hostPathsIn(text, wd string, has []string) []string {
	if wd == "" {
		wd, _ = os.Getwd()
	}
	var out []string
	words := strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(" \t\n|:;,()'\"‘’“”`=<>", r) })
	for _, w := range words {
		w = strings.TrimRight(w, ".")
		if !strings.Contains(w, "/") && !strings.Contains(w, ".") {
			continue // a bare word: a program's name or an English one
		}
		if p, ok := namedPath(wd, w); ok && p.Special == "" && !slices.Contains(out, p.Path) && !under(p.Path, has) {
			out = append(out, p.Path)
		}
	}
	return out
}

// findLibrary is where this host keeps the shared library name, "" when
// not in its usual directories.
func findLibrary(name string) string {
	for _, pattern := range []string{"/lib/*-linux-gnu*/", "/usr/lib/*-linux-gnu*/", "/usr/local/lib/", "/usr/lib/", "/lib/"} {
		matches, _ := filepath.Glob(pattern + name)
		if len(matches) > 0 {
			return matches[0]
		}
	}
	return ""
}
