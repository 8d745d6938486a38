package env

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// TestImageVolumePaths: each VOLUME's saved copy has a name of one
// component; a volume at /, in /proc, where boxtax keeps the copies or
// its worker is refused with the image and the path named, and what to do.
func TestImageVolumePaths(t *testing.T) {
	for _, tc := range []struct {
		volume  string
		want    string // the clean path; "" when refused
		dirName string
	}{
		{"/data", "/data", "%2Fdata"},
		{"data/", "/data", "%2Fdata"},
		{"/var/lib/my db", "/var/lib/my db", "%2Fvar%2Flib%2Fmy%20db"},
		{"/process", "/process", "%2Fprocess"},
		{"/", "", ""},
		{"/proc", "", ""},
		{"/proc/sys", "", ""},
		{"/.boxtax-volumes", "", ""},
		{"/.boxtax-volumes/x", "", ""},
		{"/.boxtax", "", ""},
		{"/" + strings.Repeat("a", 260), "", ""},
	} {
		t.Run(fmt.Sprintf("%.30s", tc.volume), func(t *testing.T) {
			got, err := imageVolumePaths("my:img", []string{tc.volume})
			if tc.want == "" {
				if err == nil || !strings.Contains(err.Error(), "image my:img declares VOLUME "+tc.volume) || !strings.Contains(err.Error(), "build the image without that VOLUME") {
					t.Errorf("VOLUME %s: got %v, %v; want it refused, naming the image, the path and what to do", tc.volume, got, err)
				}
				return
			}
			if err != nil || len(got) != 1 || got[0] != tc.want {
				t.Fatalf("VOLUME %s: got %v, %v; want %s", tc.volume, got, err, tc.want)
			}
			if name := volumeDirName(got[0]); name != tc.dirName || strings.Contains(name, "/") {
				t.Errorf("the saved copy of %s is named %q, want %q", got[0], name, tc.dirName)
			}
		})
	}
}

// treeOf describes every entry under dir: type, mode, owner, link target
// and content, by path.
func treeOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		sys := st.Sys().(*syscall.Stat_t)
		desc := fmt.Sprintf("%v %d:%d", st.Mode(), sys.Uid, sys.Gid)
		switch {
		case st.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			desc += " -> " + target
		case st.Mode().IsRegular():
			data, _ := os.ReadFile(p)
			desc += " " + string(data)
		case st.IsDir():
			desc += " " + st.ModTime().UTC().String()
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// diffTrees lists what differs between two treeOf's.
func diffTrees(want, got map[string]string) []string {
	var d []string
	for k, v := range want {
		if got[k] != v {
			d = append(d, fmt.Sprintf("%s: %q, want %q", k, got[k], v))
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			d = append(d, fmt.Sprintf("%s: %q, not in the image", k, v))
		}
	}
	sort.Strings(d)
	return d
}

// TestImageVolumesFreshAfterARun: the volumes' content saved at unpack
// time (a file, a directory, a symlink, a setuid mode, an owner, a volume
// the image lacks, one reached through the image's symlinks) is put back
// after a run changed it all and added files; without a run since, the
// files are left as they are. An absolute link in the files leads inside
// them, never to the host's path.
func TestImageVolumesFreshAfterARun(t *testing.T) {
	root, host := t.TempDir(), t.TempDir()
	asRoot := os.Geteuid() == 0
	write := func(rel string, data string, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	write("data/seed", "one\ntwo\n", 0o640)
	write("data/sub/deep", "deep", 0o600)
	write("data/prog", "#!/bin/sh\n", 0o755|os.ModeSetuid)
	if err := os.Chmod(filepath.Join(root, "data/sub"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("seed", filepath.Join(root, "data/link")); err != nil {
		t.Fatal(err)
	}
	if asRoot {
		if err := os.Lchown(filepath.Join(root, "data/seed"), 1000, 1001); err != nil {
			t.Fatal(err)
		}
		if err := os.Lchown(filepath.Join(root, "data/link"), 1002, 1002); err != nil {
			t.Fatal(err)
		}
	}
	// /srv is a link to the host's directory: inside the files it is /<host>, made by the unpack.
	write(strings.TrimPrefix(host, "/")+"/cache/c", "cached", 0o644)
	if err := os.Symlink(host, filepath.Join(root, "srv")); err != nil {
		t.Fatal(err)
	}
	hostFile := filepath.Join(host, "cache", "host-only")
	if err := os.MkdirAll(filepath.Dir(hostFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hostFile, []byte("the host's"), 0o644); err != nil {
		t.Fatal(err)
	}

	volumes, err := imageVolumePaths("img", []string{"/data", "/empty", "/srv/cache"})
	if err != nil {
		t.Fatal(err)
	}
	// The first run finds /empty made, as Docker makes a volume's directory.
	saveAndRun(t, root, volumes)
	if st, err := os.Stat(filepath.Join(root, "empty")); err != nil || !st.IsDir() {
		t.Fatalf("the volume the image lacks was not made: %v", err)
	}
	pristine := treeOf(t, root)
	delete(pristine, imageVolumesDir) // its time changes with the mark

	// A run: it writes in every volume.
	if err := MarkImageVolumesUsed(root); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(root, "data/seed"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("three\n")
	f.Close()
	write("data/added", "new", 0o644)
	write("data/newdir/x", "x", 0o644)
	write("empty/log", "log", 0o644)
	write(strings.TrimPrefix(host, "/")+"/cache/c2", "c2", 0o644)
	for _, err := range []error{
		os.RemoveAll(filepath.Join(root, "data/sub")),
		os.Remove(filepath.Join(root, "data/link")),
		os.Symlink("/etc/passwd", filepath.Join(root, "data/link")),
		os.Chmod(filepath.Join(root, "data/prog"), 0o644),
		os.Chmod(filepath.Join(root, "data"), 0o777),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}

	if err := restoreImageVolumes(root); err != nil {
		t.Fatal(err)
	}
	after := treeOf(t, root)
	delete(after, imageVolumesDir)
	if d := diffTrees(pristine, after); len(d) > 0 {
		t.Errorf("after the restore, the files differ from the image's:\n%s", strings.Join(d, "\n"))
	}
	if data, err := os.ReadFile(hostFile); err != nil || string(data) != "the host's" {
		t.Errorf("the restore reached the host's %s through the image's absolute link: %q, %v", hostFile, data, err)
	}

	// No run since: nothing is done, even to what changed.
	write("data/untouched", "kept", 0o644)
	if err := restoreImageVolumes(root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "data/untouched")); err != nil {
		t.Errorf("a restore with no run since did work: %v", err)
	}
}

// TestImageVolumesNone: files of an image without volumes have nothing
// saved, and marking and restoring them does nothing.
func TestImageVolumesNone(t *testing.T) {
	root := t.TempDir()
	saveAndRun(t, root, nil)
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("files without volumes got %v", entries)
	}
}

// saveAndRun saves the volumes of the image img's files at root, as
// unpacking them does, and runs once: marks them used, then restores them.
func saveAndRun(t *testing.T, root string, volumes []string) {
	t.Helper()
	if err := saveImageVolumes(root, "img", volumes); err != nil {
		t.Fatal(err)
	}
	if err := MarkImageVolumesUsed(root); err != nil {
		t.Fatal(err)
	}
	if err := restoreImageVolumes(root); err != nil {
		t.Fatal(err)
	}
}

// TestUnpackedWantsSavedVolumes: files an older boxtax unpacked (a marker
// without the volumes line) are whole for an image without volumes, and
// unpacked again for one with volumes, whose runs wrote into them.
func TestUnpackedWantsSavedVolumes(t *testing.T) {
	for _, tc := range []struct {
		marker  string
		volumes []string
		want    bool
	}{
		{"", nil, false},
		{"sha256:ab\n", nil, true},
		{"sha256:ab\n", []string{"/data"}, false},
		{"sha256:ab\nvolumes: /data\n", []string{"/data"}, true},
		{"sha256:ab\nvolumes: \n", nil, true},
	} {
		dir := t.TempDir()
		if tc.marker != "" {
			if err := os.WriteFile(filepath.Join(dir, unpackedMarker), []byte(tc.marker), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if got := unpacked(dir, tc.volumes); got != tc.want {
			t.Errorf("marker %q, volumes %v: unpacked = %v, want %v", tc.marker, tc.volumes, got, tc.want)
		}
	}
}
