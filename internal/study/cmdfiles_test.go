package study

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/boxtax/boxtax/internal/errtest"
	"github.com/boxtax/boxtax/internal/termtext"
	"github.com/boxtax/boxtax/internal/testenv"
	cmdwl "github.com/boxtax/boxtax/internal/workload/command"
)

// TestCommandBringsTheFilesItNames: --cmd's spec brings the files the
// command names into the image and says so; a relative one makes the
// program run in the current directory; one too big is refused with the
// --file that brings it anyway, and brought when given so (issue 27 item 1).
func TestCommandBringsTheFilesItNames(t *testing.T) {
	dir := t.TempDir()
	data := testenv.WriteFileIn(t, dir, "data.txt", []byte("42\n"), 0o644)
	big := bigFileIn(t, dir)
	t.Chdir(dir)

	files := func(s *Spec) []string {
		var out []string
		for _, f := range s.Workloads[0].Params["files"].([]any) {
			out = append(out, f.(string))
		}
		return out
	}
	s, err := Command{Cmds: []string{"gzip -c " + data}}.Spec()
	if err != nil {
		t.Fatal(err)
	}
	if got := files(s); !slices.Equal(got, []string{data}) || s.Workloads[0].Params["workdir"] != nil {
		t.Errorf("files %v, workdir %v; want the data file, no workdir", got, s.Workloads[0].Params["workdir"])
	}
	if !slices.Contains(s.planNotes, "adds "+data+" (3 B) to the image") {
		t.Errorf("plan notes %q", s.planNotes)
	}

	s, err = Command{Cmds: []string{"wc -l data.txt"}, Setup: "cat " + data}.Spec()
	if err != nil {
		t.Fatal(err)
	}
	if got := files(s); !slices.Equal(got, []string{data}) || s.Workloads[0].Params["workdir"] != dir {
		t.Errorf("files %v, workdir %v; want the data file once, workdir %s", got, s.Workloads[0].Params["workdir"], dir)
	}

	_, err = Command{Cmds: []string{"gzip -c big.img"}}.Spec()
	if err == nil || !strings.Contains(err.Error(), "add --file "+big+" to bring it anyway") {
		t.Errorf("a file too big: %v", err)
	}
	s, err = Command{Cmds: []string{"gzip -c big.img"}, Files: []string{"big.img"}}.Spec()
	if err != nil {
		t.Fatal(err)
	}
	if got := files(s); !slices.Equal(got, []string{"big.img"}) || len(s.planNotes) != 1 {
		t.Errorf("with --file: files %v, notes %q; want --file's alone and the working directory said", got, s.planNotes)
	}

	s, err = Command{Cmds: []string{"gzip -c " + data}, Image: "my-image:1"}.Spec()
	if err != nil || s.Workloads[0].Params["files"] != nil {
		t.Errorf("with --image nothing is added: %v, %v", s.Workloads[0].Params["files"], err)
	}
}

// TestCommandRefusesWhatANamedDirectoryHolds: issue 42, 10 and 15: a
// directory the command names that holds a named pipe, or a symlink out of
// it, is refused for the command (the user gave no --file), with the kind
// in words and what to do; a file just over the limit is said in units
// that tell it from the limit.
func TestCommandRefusesWhatANamedDirectoryHolds(t *testing.T) {
	dir := t.TempDir()
	pipes := filepath.Join(dir, "pipes")
	links := filepath.Join(dir, "links")
	outside := testenv.WriteFileIn(t, dir, "outside.txt", []byte("x\n"), 0o644)
	for _, d := range []string{pipes, links} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(pipes, "p"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(links, "l")); err != nil {
		t.Fatal(err)
	}
	big := bigFileIn(t, dir)
	for _, tc := range []struct {
		c         Command
		want, not string
	}{
		{Command{Cmds: []string{"ls " + pipes}}, "the command names the directory " + pipes + ", which holds " + filepath.Join(pipes, "p") + ", a named pipe", "--file " + pipes},
		{Command{Cmds: []string{"grep -r zzz " + links}}, "a symlink to " + outside + ": boxtax brings no file", "remove the link"},
		{Command{Cmds: []string{"grep -r zzz " + links}}, "add --file " + outside + " to bring what they lead to", ""},
		{Command{Cmds: []string{"gzip -c " + big}}, "a file of 67,108,865 bytes: more than the 64 MiB boxtax brings", "MB"},
	} {
		_, err := tc.c.Spec()
		errtest.Want(t, err, tc.want)
		if tc.not != "" && strings.Contains(err.Error(), tc.not) {
			t.Errorf("%v: says %q", err, tc.not)
		}
	}
	// the link's target named too: nothing left out, nothing refused
	if _, err := (Command{Cmds: []string{"grep -r zzz " + links + " " + outside}}).Spec(); err != nil {
		t.Errorf("a link to a named file: %v", err)
	}
	if got := termtext.SizeAgainst(80<<20, cmdwl.MaxNamedBytes); got != "80 MiB" {
		t.Errorf("SizeAgainst(80 MiB) = %q", got)
	}
}

// TestCommandBringsTheFilesItsParamsName: issue 42, 9: files named through
// --param values (cat {f} with --param f=X,Y) are brought into the image
// as those the command names itself, and one too big is refused.
func TestCommandBringsTheFilesItsParamsName(t *testing.T) {
	dir := t.TempDir()
	x := testenv.WriteFileIn(t, dir, "x", []byte("x\n"), 0o644)
	y := testenv.WriteFileIn(t, dir, "y", []byte("yy\n"), 0o644)
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	z := testenv.WriteFileIn(t, filepath.Join(dir, "sub"), "z", []byte("z\n"), 0o644)
	t.Chdir(dir)
	s, err := Command{Cmds: []string{"cat {f}"}, Params: []string{"f=" + x + "," + y}}.Spec()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range s.Workloads[0].Params["files"].([]any) {
		got = append(got, f.(string))
	}
	if !slices.Equal(got, []string{x, y}) {
		t.Errorf("files %v, want %s and %s", got, x, y)
	}
	// a placeholder within a word, and two factors combined
	s, err = Command{Cmds: []string{"cat {d}/{f}"}, Params: []string{"d=.,sub", "f=x,z"}}.Spec()
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, f := range s.Workloads[0].Params["files"].([]any) {
		got = append(got, f.(string))
	}
	if !slices.Equal(got, []string{x, z}) || s.Workloads[0].Params["workdir"] != dir {
		t.Errorf("files %v, workdir %v; want %s and %s, run in %s", got, s.Workloads[0].Params["workdir"], x, z, dir)
	}
	big := bigFileIn(t, dir)
	_, err = Command{Cmds: []string{"gzip -c {f}"}, Params: []string{"f=x,big.img"}}.Spec()
	errtest.Want(t, err, "add --file "+big+" to bring it anyway")
}

// TestCommandNamingADirectoryOfManyLinks: issue 42, 10: grep -r zzz /etc,
// a directory of many links out of it, is refused with a few of them and a
// count of the rest, with advice that fits (not a --file for each, not
// "remove the link").
func TestCommandNamingADirectoryOfManyLinks(t *testing.T) {
	dir := t.TempDir()
	links := filepath.Join(dir, "etc")
	if err := os.Mkdir(links, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		target := testenv.WriteFileIn(t, dir, fmt.Sprintf("t%d", i), []byte("x\n"), 0o644)
		if err := os.Symlink(target, filepath.Join(links, fmt.Sprintf("l%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Command{Cmds: []string{"grep -r zzz " + links}}.Spec()
	errtest.Want(t, err, ", and 2 more such (links out of it)")
	errtest.Want(t, err, "name the files the program needs instead of the directory")
	if strings.Contains(err.Error(), "--file "+dir) || strings.Contains(err.Error(), "remove the link") {
		t.Errorf("advice that does not fit: %v", err)
	}
}

// bigFileIn makes dir/big.img, a sparse file one byte over the size a
// command may bring without --file.
func bigFileIn(t *testing.T, dir string) string {
	t.Helper()
	big := filepath.Join(dir, "big.img")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, cmdwl.MaxNamedBytes+1); err != nil {
		t.Fatal(err)
	}
	return big
}
