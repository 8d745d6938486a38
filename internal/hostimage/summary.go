package hostimage

import "sort"

// Summary counts what a set holds.
type Summary struct {
	Programs     []string // as given
	Interpreters []string // paths of ELF interpreters
	Libraries    []string // paths of shared libraries and NSS modules (files, not links)
	Extras       int      // files and links added with --file
	Generated    []string // /etc/passwd, /etc/group, /etc/nsswitch.conf
	Files        int      // regular files
	Symlinks     int
	Dirs         int
	Bytes        int64 // of all regular files
}

// Summary describes the set.
func (s *Set) Summary() Summary {
	sum := Summary{Programs: s.Programs()}
	for _, e := range s.Entries() {
		switch e.Kind {
		case Dir:
			sum.Dirs++
			continue
		case Symlink:
			sum.Symlinks++
		case File:
			sum.Files++
			sum.Bytes += e.Size
		}
		switch e.Role {
		case RoleInterpreter:
			if e.Kind == File {
				sum.Interpreters = append(sum.Interpreters, e.Path)
			}
		case RoleLibrary, RoleNSS:
			if e.Kind == File {
				sum.Libraries = append(sum.Libraries, e.Path)
			}
		case RoleExtra:
			sum.Extras++
		case RoleGenerated:
			sum.Generated = append(sum.Generated, e.Path)
		}
	}
	sort.Strings(sum.Libraries)
	return sum
}
