package command

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
)

// TestFailureHint: what a program's failure in a container asks of the
// user (issue 27 item 2), read from real programs' messages: the file to
// bring (a missing file, a program a script starts, a library), the
// interpreter of a script, the permission the container's user lacks.
func TestFailureHint(t *testing.T) {
	dir := t.TempDir()
	data := testenv.WriteFileIn(t, dir, "data.txt", []byte("42\n"), 0o644)
	script := testenv.WriteFileIn(t, dir, "run.py", []byte("#!/usr/bin/python3-of-nowhere\nprint(1)\n"), 0o755)
	sh := testenv.RequireTool(t, "sh", "dash")
	gzip := testenv.RequireTool(t, "gzip", "gzip")
	for _, tt := range []struct {
		name, reason string
		params       workload.Params
		want         string
	}{
		{"a file it opens", "cmd: the program exited with status 2; its output: /tmp/run.sh: 3: cannot open " + data + ": No such file",
			workload.Params{"cmd": []any{sh, "/tmp/run.sh"}}, "add --file " + data},
		{"a relative file in its directory", "cmd: the program exited with status 1; its output: cat: data.txt: No such file or directory",
			workload.Params{"cmd": []any{"/usr/bin/cat", "data.txt"}, "workdir": dir}, "add --file " + data},
		{"not the files it has", "cmd: the program exited with status 1; its output: gzip: " + data + ": No such file or directory",
			workload.Params{"cmd": []any{gzip, "-c", data}, "files": []any{dir}}, "a file or library the program needs is not in the image"},
		{"programs a script starts", "cmd: the program exited with status 127; its output: /usr/bin/sh: 1: gzip: not found | /usr/bin/sh: 1: sh: not found",
			workload.Params{"cmd": []any{sh, "-c", "gzip -c x | sh"}}, "the command starts gzip and sh, not in the image (only the program itself and what it links are): add --file " + gzip + " --file " + sh},
		{"a library opened at run time", "cmd: the program exited with status 127; its output: x: error while loading shared libraries: libc.so.6: cannot open shared object file: No such file or directory",
			workload.Params{"cmd": []any{"/usr/bin/x"}}, "the program loads the library libc.so.6, which the image lacks"},
		{"a script's interpreter", "cmd: starting the program " + script + ": fork/exec " + script + ": no such file or directory",
			workload.Params{"cmd": []any{script}}, script + " is a script for /usr/bin/python3-of-nowhere, which the image lacks: add --file /usr/bin/python3-of-nowhere"},
		{"permission", "cmd: the program exited with status 1; its output: chrt: failed to set pid 0's policy: Operation not permitted",
			workload.Params{"cmd": []any{"/usr/bin/chrt", "-f", "50", "true"}}, "as the image's user"},
		{"something else", "cmd: the program exited with status 3; its output: sensor offline",
			workload.Params{"cmd": []any{"/usr/bin/x"}}, "the program runs natively but not here"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parse(tt.params)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.FailureHint(tt.reason, true); !strings.Contains(got, tt.want) {
				t.Errorf("hint\n%s\nwant it to contain\n%s", got, tt.want)
			}
		})
	}
}

// TestOutputHint: issue 42, 12: a run that failed for its output (too much
// of it, or a --metric that read no number) gets a hint about that, naming
// the parameter that raises the limit.
func TestOutputHint(t *testing.T) {
	for _, tc := range []struct {
		reason, want string
	}{
		{`metric x: regex "v=(\\S+)" matched "abc", which is not a number`, `--metric x's regex "v=(\\S+)" matched "abc", which is not a number`},
		{`metric x: regex "v=(\\d+)" matches nothing in the program's output (3 bytes on stdout, 0 on stderr)`, "matches nothing in its output"},
		{"yes printed more than 16777216 bytes on stdout or stderr (max_output): raise", "more than the 16 MiB of stdout or stderr boxtax keeps (its max_output), which is not an error of the program"},
		{"yes printed more than 16777216 bytes on stdout or stderr (max_output): raise", "the cmd workload's parameter max_output in a study file"},
		{"exited with status 1", ""},
	} {
		got := outputHint(tc.reason)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("outputHint(%q) = %q, want %q", tc.reason, got, tc.want)
		}
	}
}

// TestFailureHintOnThisHost: a run that failed among this host's files
// (natively) gets no hint about what an image lacks, only one about its
// output; the study says to run it by hand. Both cmd workloads answer
// through the workload.FailureHinter hook.
func TestFailureHintOnThisHost(t *testing.T) {
	for _, w := range []struct {
		wl workload.Workload
		p  workload.Params
	}{
		{Cmd, workload.Params{"cmd": "/usr/bin/x data.txt"}},
		{Server, workload.Params{"server": "/usr/bin/x -p {port}", "client": "/usr/bin/y {addr}"}},
	} {
		h, ok := workload.As[workload.FailureHinter](w.wl, w.p)
		if !ok {
			t.Fatalf("%s: no FailureHinter", w.wl.Info().Name)
		}
		if got := h.FailureHint("exited with status 1; its output: data.txt: No such file or directory", false); got != "" {
			t.Errorf("%s natively: hint %q, want none", w.wl.Info().Name, got)
		}
		if got := h.FailureHint("printed more than 16777216 bytes on stdout or stderr (max_output)", false); !strings.Contains(got, "max_output") {
			t.Errorf("%s natively, too much output: hint %q", w.wl.Info().Name, got)
		}
		if got := h.FailureHint("exited with status 1; its output: sensor offline", true); !strings.Contains(got, "runs natively but not here") {
			t.Errorf("%s in an image: hint %q", w.wl.Info().Name, got)
		}
	}
}
