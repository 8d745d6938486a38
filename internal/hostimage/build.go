package hostimage

import (
	"debug/elf"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/boxtax/boxtax/internal/hostprog"
)

// Options say what goes in the image besides the programs.
type Options struct {
	// Files are host files or directories (taken whole) to add at the same
	// paths: plugins a program opens with dlopen, configuration, data. ELF
	// files among them get their libraries too.
	Files []string
	// Loader says where libraries are looked for; nil reads the host's
	// /etc/ld.so.conf.
	Loader *Loader
}

// nssModules are the name service modules glibc opens at run time for
// /etc/nsswitch.conf's "files" and "dns" sources (built into libc since
// glibc 2.34, separate before); taken when the host has them.
var nssModules = []string{"libnss_files.so.2", "libnss_dns.so.2"}

// InputError is Build's error: a program or file that is missing or not
// what it must be, or a library the loader would not find.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Build computes the files a container needs to run the programs as they run
// on this host. An error (an *InputError) names the program, file or
// library at fault.
func Build(programs []string, o Options) (*Set, error) {
	s, err := build(programs, o)
	if err != nil {
		return nil, &InputError{err}
	}
	return s, nil
}

func build(programs []string, o Options) (*Set, error) {
	if len(programs) == 0 {
		return nil, errors.New("no program given: name at least one executable, e.g. /usr/bin/redis-server")
	}
	loader := o.Loader
	if loader == nil {
		l, err := HostLoader()
		if err != nil {
			return nil, err
		}
		loader = &l
	}
	s := NewSet()
	addRuntimeFiles(s)
	var dynamic *object // a dynamically linked program, for the NSS modules
	for _, p := range programs {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("program %s: %w", p, err)
		}
		if err := checkProgram(abs); err != nil {
			return nil, err
		}
		real, err := s.addHostPath(abs, RoleProgram, false)
		if err != nil {
			return nil, fmt.Errorf("program %s: %w", p, err)
		}
		obj, err := readObject(abs, real, true)
		if err != nil {
			return nil, fmt.Errorf("program %s: %w", p, err)
		}
		if err := s.addProcess(*loader, obj); err != nil {
			return nil, err
		}
		if obj.interp != "" && dynamic == nil {
			dynamic = obj
		}
		s.programs = append(s.programs, abs)
	}
	if dynamic != nil {
		for _, name := range nssModules {
			found, _ := loader.find(name, &object{class: dynamic.class, machine: dynamic.machine})
			if len(found) == 0 {
				continue
			}
			if err := s.addLibrary(*loader, found, RoleNSS); err != nil {
				return nil, fmt.Errorf("name service module %s: %w", name, err)
			}
		}
	}
	roots := fileRoots(o.Files)
	for _, f := range o.Files {
		if err := s.addExtra(*loader, f, roots); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// checkProgram makes sure p is an ELF executable.
func checkProgram(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("program %s does not exist", p)
		}
		return fmt.Errorf("program %s: %w", p, err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("program %s is not an ELF executable: it is a %s", p, hostprog.FileKind(fi.Mode()))
	}
	f, err := elf.Open(p)
	if err != nil {
		return fmt.Errorf("program %s is not an ELF executable (%s); a script needs its interpreter given as the program and itself with --file", p, elfProblem(err))
	}
	defer f.Close()
	if f.Type != elf.ET_EXEC && f.Type != elf.ET_DYN || fi.Mode()&0o111 == 0 {
		return fmt.Errorf("program %s is not an ELF executable: it is an ELF %s with mode %v; add a library with --file", p, f.Type, fi.Mode().Perm())
	}
	return nil
}

// addProcess adds what the loader maps for one program: its interpreter
// and every library it needs, breadth first as ld.so loads them.
func (s *Set) addProcess(l Loader, prog *object) error {
	loaded := map[string]bool{}  // names (DT_NEEDED, DT_SONAME) already mapped
	visited := map[string]bool{} // real paths whose needs were followed
	if prog.interp != "" {
		real, err := s.addHostPath(prog.interp, RoleInterpreter, false)
		if err != nil {
			return fmt.Errorf("program %s: its interpreter %s: %w", prog.name, prog.interp, err)
		}
		if interp, err := readObject(prog.interp, real, false); err == nil && interp.soname != "" {
			loaded[interp.soname] = true
		}
		loaded[prog.interp] = true
	}
	return s.followNeeds(l, prog, loaded, visited, prog.name)
}

// followNeeds adds the libraries obj needs and theirs, breadth first.
func (s *Set) followNeeds(l Loader, first *object, loaded, visited map[string]bool, what string) error {
	queue := []*object{first}
	visited[first.real] = true
	for len(queue) > 0 {
		obj := queue[0]
		queue = queue[1:]
		for _, name := range obj.needed {
			if loaded[name] {
				continue
			}
			found, dirs := l.find(name, obj)
			if len(found) == 0 {
				by := ""
				if obj.name != what {
					by = " (needed by " + obj.name + ")"
				}
				return fmt.Errorf("%s: cannot find the shared library %s%s in %s; install it, or add its directory to /etc/ld.so.conf.d",
					what, name, by, strings.Join(dirs, ":"))
			}
			loaded[name] = true
			lib, err := s.addFound(found, obj, RoleLibrary)
			if err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
			if lib.soname != "" {
				loaded[lib.soname] = true
			}
			if !visited[lib.real] {
				visited[lib.real] = true
				queue = append(queue, lib)
			}
		}
	}
	return nil
}

// addFound adds a library found at the last of paths (the others are
// glibc-hwcaps variants) and returns the one the loader maps.
func (s *Set) addFound(paths []string, loader *object, role Role) (*object, error) {
	var lib *object
	for _, p := range paths {
		real, err := s.addHostPath(p, role, false)
		if err != nil {
			return nil, fmt.Errorf("library %s: %w", p, err)
		}
		if lib, err = readObject(p, real, false); err != nil {
			return nil, fmt.Errorf("library %s: %w", p, err)
		}
		lib.loader = loader
	}
	return lib, nil
}

// addLibrary adds a library opened at run time (dlopen) and what it needs.
func (s *Set) addLibrary(l Loader, found []string, role Role) error {
	lib, err := s.addFound(found, nil, role)
	if err != nil {
		return err
	}
	return s.followNeeds(l, lib, map[string]bool{}, map[string]bool{}, lib.name)
}

// addExtra adds a host file or a directory with everything under it; ELF
// objects among them get their libraries. A symlink inside a directory is
// kept as a symlink; one that leads out of the --file paths given is an
// error, so that no host file gets into the image unnamed (a dangling one
// brings nothing and is kept).
func (s *Set) addExtra(l Loader, f string, roots []string) error {
	abs, err := filepath.Abs(f)
	if err != nil {
		return fmt.Errorf("--file %s: %w", f, err)
	}
	if _, err := os.Stat(abs); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("--file %s does not exist", f)
		}
		return fmt.Errorf("--file %s: %w", f, err)
	}
	if err := kernelMade(f, abs); err != nil {
		return err
	}
	real, err := s.addHostPath(abs, RoleExtra, false)
	if err != nil {
		return fmt.Errorf("--file %s: %w", f, err)
	}
	return filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("--file %s: %w", f, err)
		}
		if p != real {
			if d.Type()&fs.ModeSymlink != 0 {
				return s.addLinkWithin(p, f, roots)
			}
			if _, err := s.addHostPath(p, RoleExtra, true); err != nil {
				return fmt.Errorf("--file %s: %w", f, err)
			}
		}
		if !d.Type().IsRegular() || !isELF(p) {
			return nil
		}
		obj, err := readObject(p, p, false)
		if err != nil || len(obj.needed) == 0 {
			return nil // an ELF file the loader would not map; copied as it is
		}
		if err := s.followNeeds(l, obj, map[string]bool{}, map[string]bool{}, p); err != nil {
			return fmt.Errorf("--file %s: %w", f, err)
		}
		return nil
	})
}

// kernelMade refuses a --file of /proc or /sys (its real path): files the
// kernel makes as they are read, whose size it does not tell (stat says
// 0), so the copy in an image would not be the file the program reads;
// the container has its own /proc and /sys (issue 42, 15).
func kernelMade(f, abs string) error {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil // addHostPath says what is wrong with it
	}
	for _, own := range []string{"/proc", "/sys"} {
		if real == own || strings.HasPrefix(real, own+"/") {
			return fmt.Errorf("--file %s: %s is under %s, whose files the kernel makes as they are read (their size reads 0), and the container has its own %s: "+
				"to bring this host's content, copy it first (cat %s > %s.txt) and name the copy with --file", f, real, own, own, f, filepath.Base(real))
		}
	}
	return nil
}

// addLinkWithin adds the symlink at p, found under the --file directory f,
// as a symlink, when what it leads to is under one of roots (the real
// paths of every --file) or does not exist; otherwise it refuses.
func (s *Set) addLinkWithin(p, f string, roots []string) error {
	target, err := os.Readlink(p)
	if err != nil {
		return fmt.Errorf("--file %s: %w", f, err)
	}
	dest := target
	if !filepath.IsAbs(dest) {
		dest = filepath.Join(filepath.Dir(p), dest)
	}
	if real, err := filepath.EvalSymlinks(dest); err == nil {
		if !within(real, roots) {
			return fmt.Errorf("--file %s: %s is a symlink to %s, which is outside the --file paths: boxtax does not follow "+
				"links out of a directory, so that no host file gets into the image unnamed; add --file %s too if the image should hold it, "+
				"or name the files the program needs one by one instead of the directory", f, p, real, real)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("--file %s: following the symlink %s: %w", f, p, err)
	}
	s.addParents(p)
	if _, ok := s.entries[p]; !ok {
		s.entries[p] = &Entry{Path: p, Kind: Symlink, Mode: 0o777, Target: target, Role: RoleExtra}
	}
	return nil
}

// fileRoots are the real paths (no symlinks) of the --file paths.
func fileRoots(files []string) []string {
	var roots []string
	for _, f := range files {
		if abs, err := filepath.Abs(f); err == nil {
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				roots = append(roots, real)
			}
		}
	}
	return roots
}

// within reports whether p is one of roots or under one.
func within(p string, roots []string) bool {
	for _, r := range roots {
		if p == r || strings.HasPrefix(p, strings.TrimSuffix(r, "/")+"/") {
			return true
		}
	}
	return false
}

// isELF reports whether the file starts with the ELF magic number.
func isELF(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [4]byte
	_, err = f.ReadAt(magic[:], 0)
	return err == nil && string(magic[:]) == elf.ELFMAG
}

// elfProblem says briefly why a file is not ELF.
func elfProblem(err error) string {
	var fe *elf.FormatError
	if errors.As(err, &fe) && strings.Contains(err.Error(), "bad magic number") {
		return "it does not start with the ELF magic number"
	}
	return err.Error()
}
