package command

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
}

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
		p.Bytes, p.Over = treeBytes(p.Path, MaxNamedBytes)
	default:
		p.Special = kindOf(fi.Mode())
	}
	return p, true
}

// errOver stops a walk that passed its limit.
var errOver = errors.New("over the limit")

// treeBytes adds up the sizes of the files under dir, stopping once they
// exceed limit (a command naming /usr is not walked to its end).
func treeBytes(dir string, limit int64) (int64, bool) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
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
	return n, errors.Is(err, errOver)
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return m.Type().String()
}

// Size writes a byte count as people read it: 38 MB, 512 kB, 120 B.
func Size(n int64) string {
	switch {
	case n >= 10_000_000:
		return fmt.Sprintf("%d MB", (n+500_000)/1_000_000)
	case n >= 1_000_000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%d kB", (n+500)/1000)
	}
	return fmt.Sprintf("%d B", n)
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
