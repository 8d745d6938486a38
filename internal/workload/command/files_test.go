package command

import (
	"net"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
)

// TestNamedPaths: the host paths a command names among its arguments
// (issue 27 item 1), absolute or relative to its directory, in options'
// values and in sh -c's script; not the program, not what the container
// has of its own, not what does not exist; sizes, a directory's up to the
// limit, and what no image can hold.
func TestNamedPaths(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data.txt")
	testenv.WriteFile(t, data, []byte("42\n"), 0o644)
	sub := filepath.Join(dir, "conf")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	testenv.WriteFile(t, filepath.Join(sub, "a.conf"), []byte("12345"), 0o644)
	big := filepath.Join(dir, "big.img") // sparse: its size, not its blocks
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxNamedBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	sock := filepath.Join(testenv.SocketDir(t), "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	for _, tt := range []struct {
		name string
		dir  string
		argv []string
		want []NamedPath
	}{
		{"absolute", "", []string{"/usr/bin/gzip", "-c", data}, []NamedPath{{Word: data, Path: data, Bytes: 3}}},
		{"the program is not one", "", []string{data}, nil},
		{"relative to the program's directory", dir, []string{"wc", "-l", "data.txt"}, []NamedPath{{Word: "data.txt", Path: data, Relative: true, Bytes: 3}}},
		{"relative without a directory", "", []string{"wc", "-l", "data.txt"}, nil},
		{"option values", "", []string{"dd", "if=" + data, "--config=" + sub}, []NamedPath{{Word: data, Path: data, Bytes: 3}, {Word: sub, Path: sub, Dir: true, Bytes: 5}}},
		{"sh -c's script", "", []string{"sh", "-c", "gzip -c " + data + " | wc -c"}, []NamedPath{{Word: data, Path: data, Bytes: 3}}},
		{"the container's own and missing ones", "", []string{"cat", "/proc/cpuinfo", "/dev/null", "/sys/kernel", "/", filepath.Join(dir, "none")}, nil},
		{"too big", "", []string{"gzip", "-c", big}, []NamedPath{{Word: big, Path: big, Bytes: MaxNamedBytes + 1, Over: true}}},
		{"a socket", "", []string{"nc", "-U", sock}, []NamedPath{{Word: sock, Path: sock, Special: "socket"}}},
		{"not what it writes", "", []string{"dd", "if=" + data, "of=" + big, "--output=" + big, "-o", big}, []NamedPath{{Word: data, Path: data, Bytes: 3}}},
		{"once each", "", []string{"cat", data, data}, []NamedPath{{Word: data, Path: data, Bytes: 3}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := NamedPaths(tt.dir, tt.argv)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("NamedPaths(%q, %q)\n got %+v\nwant %+v", tt.dir, tt.argv, got, tt.want)
			}
		})
	}
	if got := NamedPaths("", []string{"true"}, []string{"cat", data}); len(got) != 1 || got[0].Path != data {
		t.Errorf("the setup command's paths: %+v", got)
	}
}

// TestWorkdir: with the workdir parameter the program runs there (made
// when missing, as in a container whose image holds nothing under it),
// with HOME still the scratch directory; without it, in scratch.
func TestWorkdir(t *testing.T) {
	scratch, wd := t.TempDir(), filepath.Join(t.TempDir(), "proj")
	c := &config{}
	if dir, err := c.dir(scratch); err != nil || dir != scratch {
		t.Errorf("no workdir: %q, %v; want scratch", dir, err)
	}
	c.workdir = wd
	if dir, err := c.dir(scratch); err != nil || dir != wd {
		t.Errorf("workdir: %q, %v; want %s", dir, err, wd)
	}
	if fi, err := os.Stat(wd); err != nil || !fi.IsDir() {
		t.Errorf("the missing workdir was not made: %v", err)
	}
	if err := checkWorkdir(filepath.Join(wd, "none")); err == nil {
		t.Error("a workdir that does not exist passed the host check")
	}
}
