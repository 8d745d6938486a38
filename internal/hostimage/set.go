package hostimage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/hostprog"
)

// Kind is what an entry of the image is.
type Kind int

// The kinds of entries.
const (
	Dir Kind = iota
	File
	Symlink
)

// Role says why a file is in the set, for summaries.
type Role string

// The roles of files.
const (
	RoleProgram     Role = "program"     // an executable asked for
	RoleInterpreter Role = "interpreter" // an ELF interpreter (ld-linux)
	RoleLibrary     Role = "library"     // a shared library a program or library links
	RoleNSS         Role = "nss"         // a name service module (libnss_files)
	RoleExtra       Role = "extra"       // a file or directory asked for with --file
	RoleGenerated   Role = "generated"   // /etc/passwd, /etc/group, /etc/nsswitch.conf
	RoleDir         Role = "dir"         // a directory on the way to a file
)

// Entry is one file, directory or symlink of the image.
type Entry struct {
	Path   string      // absolute and clean, e.g. /usr/lib/x86_64-linux-gnu/libc.so.6
	Kind   Kind        //
	Mode   fs.FileMode // permission bits with setuid, setgid and sticky
	Target string      // a symlink's target, as the host has it
	Source string      // the host file holding a file's content; empty when Data holds it
	Data   []byte      // generated content
	Size   int64       // of a file, in bytes
	// ModTime is a host file's modification time, kept in the image so
	// that the copy is the host's file (gzip refuses a time of 0);
	// generated files, directories and symlinks have none (the epoch).
	ModTime time.Time
	Role    Role
}

// Set is the files of an image, by path.
type Set struct {
	entries  map[string]*Entry
	programs []string
}

// NewSet is an empty set, to fill with AddData and AddDir.
func NewSet() *Set { return &Set{entries: map[string]*Entry{}} }

// Programs are the executables the set was made for, as given.
func (s *Set) Programs() []string { return append([]string(nil), s.programs...) }

// Entries returns the entries sorted by path, parents before children.
func (s *Set) Entries() []*Entry {
	out := make([]*Entry, 0, len(s.entries))
	for _, e := range s.entries {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Has reports whether the set holds path, as a file, directory or symlink.
func (s *Set) Has(p string) bool {
	_, ok := s.entries[path.Clean(p)]
	return ok
}

// Entry returns the entry at path, or nil.
func (s *Set) Entry(p string) *Entry { return s.entries[path.Clean(p)] }

// AddData adds a generated file (replacing an entry at the same path) with
// its parent directories, which get mode 0755 unless the set has them.
func (s *Set) AddData(p string, data []byte, mode fs.FileMode, role Role) {
	p = path.Clean("/" + p)
	s.addParents(p)
	s.entries[p] = &Entry{Path: p, Kind: File, Mode: mode, Data: data, Size: int64(len(data)), Role: role}
}

// AddDir adds an empty directory (replacing an entry at the same path).
func (s *Set) AddDir(p string, mode fs.FileMode) {
	p = path.Clean("/" + p)
	s.addParents(p)
	s.entries[p] = &Entry{Path: p, Kind: Dir, Mode: mode, Role: RoleDir}
}

func (s *Set) addParents(p string) {
	for dir := path.Dir(p); dir != "/"; dir = path.Dir(dir) {
		if _, ok := s.entries[dir]; !ok {
			s.entries[dir] = &Entry{Path: dir, Kind: Dir, Mode: 0o755, Role: RoleDir}
		}
	}
}

// maxSymlinks bounds the symlinks followed for one path, as the kernel's 40.
const maxSymlinks = 40

// addHostPath adds the host's file at p and everything on the way to it:
// each directory, and each symlink as a symlink with its target. It returns
// the real path of the file (no symlinks). A dangling symlink is an error
// unless allowDangling, when it is kept and "" returned.
func (s *Set) addHostPath(p string, role Role, allowDangling bool) (string, error) {
	if !path.IsAbs(p) {
		return "", fmt.Errorf("%s: a path in the image must be absolute", p)
	}
	rest := splitPath(p)
	cur := "/"
	links := 0
	for len(rest) > 0 {
		next := path.Join(cur, rest[0])
		rest = rest[1:]
		fi, err := os.Lstat(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && allowDangling && links > 0 {
				return "", nil
			}
			if next != path.Clean(p) && errors.Is(err, fs.ErrNotExist) {
				return "", fmt.Errorf("%s: %s does not exist", p, next)
			}
			return "", err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			if links++; links > maxSymlinks {
				return "", fmt.Errorf("%s: too many levels of symbolic links", p)
			}
			target, err := os.Readlink(next)
			if err != nil {
				return "", err
			}
			if _, ok := s.entries[next]; !ok {
				s.addParents(next)
				s.entries[next] = &Entry{Path: next, Kind: Symlink, Mode: 0o777, Target: target, Role: linkRole(role, rest)}
			}
			resolved := target
			if !path.IsAbs(target) {
				resolved = path.Join(cur, target)
			}
			rest = append(splitPath(resolved), rest...)
			cur = "/"
		case fi.IsDir():
			if _, ok := s.entries[next]; !ok {
				s.entries[next] = &Entry{Path: next, Kind: Dir, Mode: modeBits(fi.Mode()), Role: RoleDir}
			}
			cur = next
		case fi.Mode().IsRegular():
			if len(rest) > 0 {
				return "", fmt.Errorf("%s: %s is not a directory", p, next)
			}
			if e, ok := s.entries[next]; !ok || e.Kind != File || e.Source == "" { // a host file replaces a generated one
				s.entries[next] = &Entry{Path: next, Kind: File, Mode: modeBits(fi.Mode()), Source: next, Size: fi.Size(), ModTime: fi.ModTime(), Role: role}
			}
			cur = next
		default:
			return "", fmt.Errorf("%s is a %s, not a regular file, directory or symlink: no image can hold one", next, hostprog.FileKind(fi.Mode()))
		}
	}
	return cur, nil
}

// linkRole is the role of a symlink met on the way: the file's when the
// link is the last component, a directory's otherwise.
func linkRole(role Role, rest []string) Role {
	if len(rest) == 0 {
		return role
	}
	return RoleDir
}

func splitPath(p string) []string {
	var out []string
	for _, c := range strings.Split(path.Clean(p), "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// modeBits keeps the permission, setuid, setgid and sticky bits.
func modeBits(m fs.FileMode) fs.FileMode {
	return m & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}

// Resolve follows p through the set's own directories and symlinks, as
// the kernel will in the container, and returns the path of the entry it
// ends at; false when p does not exist in the image.
func (s *Set) Resolve(p string) (string, bool) {
	rest := splitPath(p)
	cur := "/"
	for links := 0; len(rest) > 0; {
		next := path.Join(cur, rest[0])
		rest = rest[1:]
		e, ok := s.entries[next]
		switch {
		case !ok:
			return "", false
		case e.Kind == Symlink:
			if links++; links > maxSymlinks {
				return "", false
			}
			target := e.Target
			if !path.IsAbs(target) {
				target = path.Join(cur, target)
			}
			rest = append(splitPath(target), rest...)
			cur = "/"
		case e.Kind == File && len(rest) > 0:
			return "", false
		default:
			cur = next
		}
	}
	return cur, true
}
