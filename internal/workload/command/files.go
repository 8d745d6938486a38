package command

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/hostprog"
	"github.com/boxtax/boxtax/internal/termtext"
)

// MaxNamedBytes is the most a file or directory the command names may hold
// to be brought into a container's image without being asked for with
// --file: the image is made in memory and imported whole.
const MaxNamedBytes = 64 << 20

// NamedPath is a host file or directory a command names among its
// arguments: gzip -c /usr/local/go/bin/go names /usr/local/go/bin/go, wc -l
// data.txt names data.txt of the directory the program runs in.
type NamedPath struct {
	Word     string // as the command writes it
	Path     string // absolute and clean
	Relative bool   // written relative to the program's directory
	Dir      bool
	// Bytes are the file's size, or of every file under the directory;
	// Over says they exceed MaxNamedBytes (counting stopped there).
	Bytes int64
	Over  bool
	// Special is the kind of a path that is neither a file nor a directory
	// (socket, device, named pipe): no image can hold it.
	Special string
	// Inside are, for a directory, the first few paths under it no image
	// can hold as they are: a socket, device or named pipe (Special says
	// which), or a symlink whose target lies outside the directory
	// (Target says where it leads).
	Inside []InsidePath
	// Beyond counts such paths past the first few.
	Beyond int
}

// InsidePath is a path under a named directory that the image cannot
// hold as it is.
type InsidePath struct {
	Path    string
	Special string // socket, device, named pipe; "" for a symlink
	Target  string // a symlink's real target, outside the directory
}

// maxInside is how many such paths a directory reports.
const maxInside = 3

// containerOwn are the directories a container has of its own: a path
// under them names the container's, never a host file to bring in.
var containerOwn = []string{"/proc", "/sys", "/dev"}

// NamedPaths finds the host paths among the arguments of each command
// (argv[0], the program, is the image's already): a word, or the value of
// --opt=VALUE and if=VALUE, that exists on this host, absolute or relative
// to dir (not looked for when dir is ""); not what -o, --output or dd's of=
// name, which the program writes. A word holding blanks, such as
// sh -c's script, is split as a command and searched too, its program
// included. Paths under /proc, /sys and /dev, and / itself, are left
// out: the container has its own.
func NamedPaths(dir string, commands ...[]string) []NamedPath {
	var out []NamedPath
	seen := map[string]bool{}
	var visit func(words []string, skipFirst bool)
	visit = func(words []string, skipFirst bool) {
		for i, w := range words {
			if i == 0 && skipFirst || i > 0 && outputFlags[words[i-1]] {
				continue
			}
			if strings.ContainsAny(w, " \t\n") {
				if inner, err := Split(w); err == nil {
					visit(inner, false)
				}
				continue
			}
			for _, cand := range candidates(w) {
				if p, ok := namedPath(dir, cand); ok && !seen[p.Path] {
					seen[p.Path] = true
					out = append(out, p)
				}
			}
		}
	}
	for _, argv := range commands {
		visit(argv, true)
	}
	return out
}

// outputFlags name the file a program writes, in the next word or after
// '=' (gzip -o, dd of=): one a previous run left is not the program's
// input, and is not brought into the image.
var outputFlags = map[string]bool{"-o": true, "--output": true, "--out": true, "of": true, "--output-file": true, "--log-file": true}

// candidates are the words of w that may be paths: w itself, unless an
// option, and what follows its first '=', unless an output's.
func candidates(w string) []string {
	var out []string
	if w != "" && !strings.HasPrefix(w, "-") {
		out = append(out, w)
	}
	if k, v, ok := strings.Cut(w, "="); ok && v != "" {
		if outputFlags[k] {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// namedPath is the host path w names, when it exists.
func namedPath(dir, w string) (NamedPath, bool) {
	p := NamedPath{Word: w, Path: filepath.Clean(w)}
	if !filepath.IsAbs(w) {
		if dir == "" {
			return p, false
		}
		p.Path, p.Relative = filepath.Join(dir, w), true
	}
	if p.Path == "/" {
		return p, false
	}
	for _, own := range containerOwn {
		if p.Path == own || strings.HasPrefix(p.Path, own+"/") {
			return p, false
		}
	}
	fi, err := os.Stat(p.Path)
	if err != nil {
		return p, false
	}
	switch {
	case fi.Mode().IsRegular():
		p.Bytes = fi.Size()
		p.Over = p.Bytes > MaxNamedBytes
	case fi.IsDir():
		p.Dir = true
		p.Bytes, p.Over, p.Inside, p.Beyond = treeBytes(p.Path, MaxNamedBytes)
	default:
		p.Special = hostprog.FileKind(fi.Mode())
	}
	return p, true
}

// errOver stops a walk that passed its limit.
var errOver = errors.New("over the limit")

// treeBytes adds up the sizes of the files under dir, stopping once they
// exceed limit (a command naming /usr is not walked to its end), and
// finds the first few paths under it no image can hold as they are.
func treeBytes(dir string, limit int64) (int64, bool, []InsidePath, int) {
	var n int64
	var inside []InsidePath
	beyond := 0
	add := func(in InsidePath) {
		if len(inside) < maxInside {
			inside = append(inside, in)
		} else {
			beyond++
		}
	}
	realDir, _ := filepath.EvalSymlinks(dir)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		switch t := d.Type(); {
		case t&fs.ModeSymlink != 0:
			real, err := filepath.EvalSymlinks(p)
			if err == nil && realDir != "" && real != realDir && !strings.HasPrefix(real, realDir+"/") {
				add(InsidePath{Path: p, Target: real})
			}
			return nil
		case t.IsDir():
			return nil
		case !t.IsRegular():
			add(InsidePath{Path: p, Special: hostprog.FileKind(t)})
			return nil
		}
		if fi, err := d.Info(); err == nil {
			n += fi.Size()
		}
		if n > limit {
			return errOver
		}
		return nil
	})
	return n, errors.Is(err, errOver), inside, beyond
}

// checkWorkdir makes sure the workdir parameter names a directory of this
// host (the controller's check).
func checkWorkdir(dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("parameter workdir: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("parameter workdir: %s is not a directory", dir)
	}
	return nil
}

// dir is where the program runs: the workdir parameter, made in a
// container whose image holds nothing under it, else scratch.
func (c *config) dir(scratch string) (string, error) {
	if c.workdir == "" {
		return scratch, nil
	}
	if _, err := os.Stat(c.workdir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(c.workdir, 0o755); err != nil {
			return "", fmt.Errorf("making the working directory %s: %w", c.workdir, err)
		}
	}
	return c.workdir, nil
}

// namedFiles are what --cmd, --setup and --prepare name on this host,
// decided before the study starts (issue 27): a file or directory up to
// MaxNamedBytes goes into the containers' image at its path (files keep
// their mode and time), and a relative one makes the program run in the
// current directory, natively and in a container, so it resolves the
// same way in both. A path too big for that, or a socket or device, is
// refused with the flags that would do; so is one the containers could
// not see the same.
type namedFiles struct {
	files   []string // absolute paths to add to the files parameter
	workdir string   // the current directory, when a relative path is named
	notes   []string // for the plan line: what goes into the image
}

// findNamedFiles finds the paths the commands name, with each --param's
// levels in place of its {NAME} (issue 42, 9: cat {f} with --param
// f=/tmp/x,/tmp/y names both files); given are the --file paths.
func findNamedFiles(commands [][]string, factors []Factor, given []string) (namedFiles, error) {
	var out namedFiles
	var argvs [][]string
	for _, argv := range commands {
		argvs = append(argvs, substituted(argv, factors)...)
	}
	wd, err := os.Getwd()
	if err != nil {
		wd = "" // relative paths are not looked for
	}
	given = absAll(given)
	named := NamedPaths(wd, argvs...)
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
				p.Word, p.tooBig(), termtext.SizeIEC(MaxNamedBytes), p.Path))
		default:
			out.files = append(out.files, p.Path)
			out.notes = append(out.notes, fmt.Sprintf("adds %s (%s) to the image", p.Path, p.size()))
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

// tooBig names a path that is too big: a file of 80 MiB (of 67,108,865
// bytes when that would round to the limit), a directory of more than 64 MiB.
func (p NamedPath) tooBig() string {
	if p.Dir {
		return "a directory of more than " + termtext.SizeIEC(MaxNamedBytes)
	}
	return "a file of " + termtext.SizeAgainst(p.Bytes, MaxNamedBytes)
}

// size is how big p is, for the plan line.
func (p NamedPath) size() string {
	if p.Dir {
		return "a directory, " + termtext.Size(p.Bytes)
	}
	return termtext.Size(p.Bytes)
}

// insideRefused says why the directory p names cannot go into an image as
// it is (issue 42, 10): it holds a socket, device or named pipe, or a
// symlink leading out of it and of every other path named; "" when none.
func insideRefused(p NamedPath, roots []string) string {
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
		more = fmt.Sprintf(", and %s more such", termtext.GroupDigits(int64(p.Beyond)))
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
