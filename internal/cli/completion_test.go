package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
)

func TestCompletionScripts(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		shell string
		want  []string
	}{
		{"bash", []string{"seed001-tools", "--max-overhead", "docker-bridge", "cpu.prime", "'fleet run|--envs'", "complete -o filenames -F _boxtax boxtax"}},
		{"zsh", []string{"bashcompinit", "seed001-tools", "--max-overhead", "docker-bridge"}},
		{"fish", []string{"seed001-tools", "-l max-overhead", "docker-bridge", "-s i -r -F"}},
	} {
		t.Run(tt.shell, func(t *testing.T) {
			res := runIn(t, dir, "completion", tt.shell)
			if res.code != ExitOK || res.stderr != "" {
				t.Fatalf("exit %d: %s", res.code, res.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(res.stdout, w) {
					t.Errorf("script lacks %q", w)
				}
			}
			if strings.Contains(res.stdout, " worker ") || strings.Contains(res.stdout, "-a worker") {
				t.Error("the internal worker command is offered")
			}
			check := map[string][]string{"bash": {"bash", "-n"}, "zsh": {"zsh", "-n"}, "fish": {"fish", "--no-execute"}}[tt.shell]
			sh := testenv.RequireTool(t, check[0], check[0]) // the Debian packages are named as the shells
			path := filepath.Join(dir, "boxtax."+tt.shell)
			os.WriteFile(path, []byte(res.stdout), 0o644)
			if out, err := exec.Command(sh, append(check[1:], path)...).CombinedOutput(); err != nil {
				t.Errorf("%s: %v\n%s", strings.Join(check, " "), err, out)
			}
		})
	}
}

// TestBashCompletionCompletes runs the bash script's function as bash
// would on a TAB and checks its answers.
func TestBashCompletionCompletes(t *testing.T) {
	bash := testenv.RequireTool(t, "bash", "bash")
	dir := t.TempDir()
	res := runIn(t, dir, "completion", "bash")
	script := filepath.Join(dir, "boxtax.bash")
	os.WriteFile(script, []byte(res.stdout), 0o644)
	for _, tt := range []struct {
		line string // the words typed, the last one being completed
		want []string
		not  []string
	}{
		{"boxtax ru", []string{"run"}, []string{"report"}},
		{"boxtax run seed001-t", []string{"seed001-tools"}, nil},
		{"boxtax run --max-", []string{"--max-overhead", "--max-reps"}, []string{"--db"}},
		{"boxtax run --envs docker-b", []string{"docker-bridge"}, []string{"native"}},
		{"boxtax run --envs native,docker-h", []string{"native,docker-host"}, nil},
		{"boxtax run --workloads cpu.p", []string{"cpu.prime"}, nil},
		{"boxtax fleet run --envs po", []string{"podman-bridge"}, nil},
		{"boxtax fleet ", []string{"run"}, nil},
		{"boxtax list ", []string{"workloads", "envs", "options", "studies"}, nil},
		{"boxtax list --format ", []string{"table", "json"}, nil},
		{"boxtax completion ", []string{"bash", "zsh", "fish"}, nil},
		{"boxtax help fl", []string{"fleet"}, nil},
		{"boxtax report --f", []string{"--format"}, []string{"--envs"}},
		// Values from a list, not file names (issue 27 item 8).
		{"boxtax report --format ", []string{"html", "markdown", "md", "csv", "json", "latex", "table"}, []string{"main_test.go"}},
		{"boxtax compare --format m", []string{"markdown", "md"}, []string{"main_test.go"}},
		{"boxtax run --reps ", []string{"auto", "paper"}, []string{"main_test.go"}},
		{"boxtax run --wire host,n", []string{"host,netns"}, nil},
		{"boxtax fleet run --reps a", []string{"auto"}, nil},
		{"boxtax analyze --unit ", []string{"slice", "run", "both"}, []string{"main_test.go"}},
		{"boxtax report -o ", []string{"main_test.go"}, nil}, // a file name stays a file name
	} {
		t.Run(tt.line, func(t *testing.T) {
			words := strings.Split(tt.line, " ")
			var quoted []string
			for _, w := range words {
				quoted = append(quoted, shellWord(w))
			}
			prog := "source " + shellWord(script) + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" +
				strconv.Itoa(len(words)-1) + "\n_boxtax\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
			out, err := exec.Command(bash, "-c", prog).CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			got := strings.Fields(string(out))
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("no %q in %v", w, got)
				}
			}
			for _, w := range tt.not {
				if slices.Contains(got, w) {
					t.Errorf("%q offered: %v", w, got)
				}
			}
		})
	}
}

func TestCompletionUnknownShellListsShells(t *testing.T) {
	res := runIn(t, t.TempDir(), "completion", "tcsh")
	if res.code != ExitUsage || !strings.Contains(res.stderr, `"tcsh"`) || !strings.Contains(res.stderr, "bash, zsh, fish") || res.stdout != "" {
		t.Errorf("exit %d stdout %q stderr %q", res.code, res.stdout, res.stderr)
	}
}
