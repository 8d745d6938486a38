package hostimage

import (
	"bufio"
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Loader is where the dynamic loader looks for libraries on this host.
// Root is "/" except in tests.
type Loader struct {
	// ConfDirs are the directories of /etc/ld.so.conf and the files it
	// includes, in order: what ldconfig puts in the cache.
	ConfDirs []string
}

// HostLoader reads /etc/ld.so.conf. A missing file gives no directories.
func HostLoader() (Loader, error) {
	dirs, err := readLdSoConf("/etc/ld.so.conf", map[string]bool{})
	if err != nil {
		return Loader{}, err
	}
	return Loader{ConfDirs: dirs}, nil
}

// readLdSoConf returns the directories a ld.so.conf file names, following
// its include lines (globs, relative to the file's directory).
func readLdSoConf(file string, seen map[string]bool) ([]string, error) {
	if seen[file] {
		return nil, nil
	}
	seen[file] = true
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the loader's configuration: %w", err)
	}
	var dirs []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		switch {
		case len(fields) == 0, fields[0] == "hwcap":
		case fields[0] == "include":
			for _, pattern := range fields[1:] {
				if !filepath.IsAbs(pattern) {
					pattern = filepath.Join(filepath.Dir(file), pattern)
				}
				matches, _ := filepath.Glob(pattern) // sorted
				for _, m := range matches {
					more, err := readLdSoConf(m, seen)
					if err != nil {
						return nil, err
					}
					dirs = append(dirs, more...)
				}
			}
		default:
			for _, f := range fields { // "dir" or "dir=TYPE" (libc4/5 era)
				d, _, _ := strings.Cut(f, "=")
				if path.IsAbs(d) {
					dirs = append(dirs, path.Clean(d))
				}
			}
		}
	}
	return dirs, nil
}

// object is one ELF file the loader maps: a program, the interpreter or a
// library, with what it asks for.
type object struct {
	name    string   // the path it was found at (symlinks not resolved)
	real    string   // its real path
	needed  []string // DT_NEEDED
	soname  string   // DT_SONAME
	rpath   []string // DT_RPATH, $ORIGIN expanded
	runpath []string // DT_RUNPATH, $ORIGIN expanded
	hasRun  bool     // DT_RUNPATH present (then DT_RPATH is ignored)
	interp  string   // PT_INTERP
	loader  *object  // the object whose DT_NEEDED brought it in; nil for a program
	class   elf.Class
	machine elf.Machine
}

// readObject reads what the loader needs from the ELF file at name.
func readObject(name, real string, isProgram bool) (*object, error) {
	f, err := elf.Open(real)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	o := &object{name: name, real: real, class: f.Class, machine: f.Machine}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			b, err := io.ReadAll(io.LimitReader(p.Open(), 4096))
			if err != nil {
				return nil, fmt.Errorf("reading its interpreter: %w", err)
			}
			o.interp = string(bytes.TrimRight(b, "\x00"))
		}
	}
	if f.Section(".dynamic") == nil && dynamicProg(f) == nil {
		return o, nil // static
	}
	if o.needed, err = f.DynString(elf.DT_NEEDED); err != nil {
		return nil, fmt.Errorf("reading its DT_NEEDED: %w", err)
	}
	if s, _ := f.DynString(elf.DT_SONAME); len(s) > 0 {
		o.soname = s[0]
	}
	// $ORIGIN is the directory of the program's real path (the loader asks
	// /proc/self/exe), and of a library's path as found.
	origin := path.Dir(name)
	if isProgram {
		origin = path.Dir(real)
	}
	rpath, _ := f.DynString(elf.DT_RPATH)
	runpath, _ := f.DynString(elf.DT_RUNPATH)
	o.hasRun = len(runpath) > 0
	o.rpath = expandPaths(rpath, origin, f)
	o.runpath = expandPaths(runpath, origin, f)
	return o, nil
}

func dynamicProg(f *elf.File) *elf.Prog {
	for _, p := range f.Progs {
		if p.Type == elf.PT_DYNAMIC {
			return p
		}
	}
	return nil
}

// expandPaths splits DT_RPATH or DT_RUNPATH values and expands $ORIGIN,
// $LIB and $PLATFORM as the loader does.
func expandPaths(values []string, origin string, f *elf.File) []string {
	var out []string
	lib := "lib"
	if t := multiarchTriplet(f.Machine, f.Class); t != "" {
		lib = "lib/" + t
	}
	for _, v := range values {
		for _, d := range strings.Split(v, ":") {
			if d == "" {
				continue
			}
			for _, tok := range []struct{ name, value string }{
				{"ORIGIN", origin}, {"LIB", lib}, {"PLATFORM", platform(f.Machine)},
			} {
				d = strings.ReplaceAll(d, "${"+tok.name+"}", tok.value)
				d = strings.ReplaceAll(d, "$"+tok.name, tok.value)
			}
			if path.IsAbs(d) {
				out = append(out, path.Clean(d))
			}
		}
	}
	return out
}

// defaultDirs are the loader's own directories after the cache: the
// multiarch ones (Debian), then lib64 for 64-bit machines, then lib.
func defaultDirs(m elf.Machine, c elf.Class) []string {
	var dirs []string
	if t := multiarchTriplet(m, c); t != "" {
		dirs = append(dirs, "/lib/"+t, "/usr/lib/"+t)
	}
	if c == elf.ELFCLASS64 {
		dirs = append(dirs, "/lib64", "/usr/lib64")
	}
	return append(dirs, "/lib", "/usr/lib")
}

// searchDirs are the directories the loader tries, in order, for a library
// that obj asks for: DT_RPATH of obj and of the objects that loaded it up to
// the program (unless obj has DT_RUNPATH), obj's DT_RUNPATH, the cache
// (ld.so.conf) and the default directories.
func (l Loader) searchDirs(obj *object) []string {
	var dirs []string
	if !obj.hasRun {
		for o := obj; o != nil; o = o.loader { // ends at the program
			dirs = append(dirs, o.rpath...)
		}
	}
	dirs = append(dirs, obj.runpath...)
	dirs = append(dirs, l.ConfDirs...)
	dirs = append(dirs, defaultDirs(obj.machine, obj.class)...)
	// A directory tried once needs no second try.
	seen := map[string]bool{}
	out := dirs[:0]
	for _, d := range dirs {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// compatible reports whether the file at p is an ELF object the loader
// would take for obj: same class and machine. Others are skipped, as the
// loader skips a 32-bit library in a directory it searches.
func compatible(p string, class elf.Class, machine elf.Machine) bool {
	f, err := elf.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	return f.Class == class && f.Machine == machine && (f.Type == elf.ET_DYN || f.Type == elf.ET_EXEC)
}

// find returns the paths at which the loader finds name for obj: the one it
// maps, preceded by glibc-hwcaps variants of it; nil when none.
func (l Loader) find(name string, obj *object) ([]string, []string) {
	dirs := l.searchDirs(obj)
	if strings.Contains(name, "/") {
		p := name
		if !path.IsAbs(p) {
			p = path.Join(path.Dir(obj.name), p) // relative to the working directory, in truth
		}
		if compatible(p, obj.class, obj.machine) {
			return []string{p}, dirs
		}
		return nil, dirs
	}
	var found []string
	for _, d := range dirs {
		for _, h := range hwcapsDirs(obj.machine) {
			if p := path.Join(d, h, name); compatible(p, obj.class, obj.machine) {
				found = append(found, p)
			}
		}
		if p := path.Join(d, name); compatible(p, obj.class, obj.machine) {
			return append(found, p), dirs
		}
	}
	return nil, dirs
}
