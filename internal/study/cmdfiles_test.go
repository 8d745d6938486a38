package study

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
	big := filepath.Join(dir, "big.img")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(cmdwl.MaxNamedBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
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
