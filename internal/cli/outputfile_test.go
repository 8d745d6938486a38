package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOutputRefusesAPlantedSymlink is issue 25 item 3: a symbolic link
// planted at the -o path (or a plot's path) in a directory anyone may
// write is refused, and the file it points at stays as it was.
func TestOutputRefusesAPlantedSymlink(t *testing.T) {
	dir := studyDir(t, "kept")
	storedStudy(t, filepath.Join(dir, "other.db"), "other", pi4, 0.25)
	shared := filepath.Join(dir, "tmp")
	if err := os.Mkdir(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o1777); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(dir, "shadow")
	const secret = "root:secret:0:0\n"
	tests := []struct {
		name string
		link string // planted at this path, under shared
		args []string
	}{
		{"report", "r.txt", []string{"report", "-o", "tmp/r.txt"}},
		{"report csv", "r.csv", []string{"report", "--format", "csv", "-o", "tmp/r.csv"}},
		{"compare", "c.txt", []string{"compare", "boxtax.db", "other.db", "-o", "tmp/c.txt"}},
		{"analyze", "a.txt", []string{"analyze", "--unit", "run", "--workload", "cpu.prime", "-o", "tmp/a.txt"}},
		{"a plot", "01-overhead.svg", []string{"report", "--plots", "tmp", "-o", filepath.Join(dir, "ok.txt")}},
		{"a link to a device", "null", []string{"report", "-o", "tmp/null"}},
		{"a link as the plot directory", "plots", []string{"report", "--plots", "tmp/plots", "-o", filepath.Join(dir, "ok.txt")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			writeSecret(t, victim, secret)
			target := victim
			switch tt.link {
			case "null":
				target = os.DevNull // a device, but the link lies in a shared directory
			case "plots":
				target = filepath.Join(dir, "etc") // a directory files would be written into
				if err := os.MkdirAll(target, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			link := filepath.Join(shared, tt.link)
			os.Remove(link)
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			r := runIn(t, dir, tt.args...)
			if r.code != ExitUsage || !strings.Contains(r.stderr, "is a symbolic link") {
				t.Errorf("exit %d, stderr %q; want %d and a refusal of the link", r.code, r.stderr, ExitUsage)
			}
			b, err := os.ReadFile(victim)
			fi, _ := os.Stat(victim)
			if err != nil || string(b) != secret || fi.Mode().Perm() != 0o600 {
				t.Errorf("the link's target is now %q mode %v (%v), want it untouched", b, fi.Mode().Perm(), err)
			}
			if entries, _ := os.ReadDir(filepath.Join(dir, "etc")); len(entries) > 0 {
				t.Errorf("files written through the linked directory: %v", entries)
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the link was replaced: %v", err)
			}
		})
	}
	t.Run("a link to a device in a private directory", func(t *testing.T) {
		if err := os.Symlink(os.DevNull, filepath.Join(dir, "null")); err != nil {
			t.Fatal(err)
		}
		runOK(t, dir, "report", "-o", "null")
	})
}

// writeSecret writes the file a planted link aims at: 0600, as a shadow
// file is.
func writeSecret(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestOutputModeFollowsTheUmask is issue 25 item 5: a new -o file and new
// plot files get 0666 less the umask, as the shell's > makes them, and a
// replaced file of the user's keeps its mode.
func TestOutputModeFollowsTheUmask(t *testing.T) {
	dir := studyDir(t, "kept")
	for _, umask := range []int{0o077, 0o022} {
		old := syscall.Umask(umask)
		sub := filepath.Join(dir, fmt.Sprintf("umask%03o", umask))
		r := runIn(t, dir, "report", "--format", "csv", "-o", sub+".csv", "--plots", sub)
		syscall.Umask(old)
		if r.code != ExitOK {
			t.Fatalf("umask %03o: exit %d: %s", umask, r.code, r.stderr)
		}
		want := os.FileMode(0o666 &^ umask)
		svgs, _ := filepath.Glob(filepath.Join(sub, "*.svg"))
		if len(svgs) == 0 {
			t.Fatalf("umask %03o: no plots in %s", umask, sub)
		}
		for _, p := range append([]string{sub + ".csv"}, svgs...) {
			if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
				t.Errorf("umask %03o: %s mode %v (%v), want %v", umask, filepath.Base(p), fi.Mode().Perm(), err, want)
			}
		}
		if fi, err := os.Stat(sub); err != nil || fi.Mode().Perm() != os.FileMode(0o777&^umask) {
			t.Errorf("umask %03o: the plot directory's mode %v (%v), want %v", umask, fi.Mode().Perm(), err, os.FileMode(0o777&^umask))
		}
	}
	kept := filepath.Join(dir, "kept.csv")
	writeSecret(t, kept, "old\n")
	if err := os.Chmod(kept, 0o640); err != nil {
		t.Fatal(err)
	}
	runOK(t, dir, "report", "--format", "csv", "-o", kept)
	if fi, err := os.Stat(kept); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("a replaced file's mode: %v (%v), want 0640", fi.Mode().Perm(), err)
	}
}
