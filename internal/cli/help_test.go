package cli

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

func TestHelpGoesToStdoutWithExitZero(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string // in stdout
	}{
		{[]string{"--help"}, "Usage: boxtax COMMAND"},
		{[]string{"-h"}, "Usage: boxtax COMMAND"},
		{[]string{"help"}, "Usage: boxtax COMMAND"},
		{[]string{"help", "run"}, "Usage: boxtax run [STUDY]"},
		{[]string{"--help", "report"}, "Usage: boxtax report"},
		{[]string{"run", "--help"}, "Usage: boxtax run [STUDY]"},
		{[]string{"run", "-h"}, "--max-overhead RULE"},
		{[]string{"list", "--help"}, "Usage: boxtax list"},
		{[]string{"fleet", "--help"}, "Usage: boxtax fleet run"},
		{[]string{"help", "fleet", "run"}, "--inventory STRING"},
		{[]string{"image", "--help"}, "from-host"},
		{[]string{"help", "image", "from-host"}, "--tag STRING"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			res := runIn(t, dir, tt.args...)
			if res.code != ExitOK {
				t.Errorf("exit %d, want 0", res.code)
			}
			if !strings.Contains(res.stdout, tt.want) {
				t.Errorf("stdout lacks %q:\n%s", tt.want, res.stdout)
			}
			if res.stderr != "" {
				t.Errorf("stderr not empty:\n%s", res.stderr)
			}
		})
	}
}

func TestUsageErrorsGoToStderrWithExitTwo(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want []string // in stderr
	}{
		{nil, []string{"Usage: boxtax COMMAND"}},
		{[]string{"help", "rnu"}, []string{`unknown command "rnu"`, "run"}},
		{[]string{"run", "--bogus"}, []string{"unknown flag --bogus", "usage: boxtax run", "boxtax help run for more"}},
		{[]string{"image"}, []string{"name an image command: from-host"}},
		{[]string{"--version", "x"}, []string{"takes no arguments"}},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			res := runExits(t, dir, ExitUsage, tt.args, tt.want...)
			if res.stdout != "" {
				t.Errorf("stdout not empty:\n%s", res.stdout)
			}
		})
	}
}

func TestVersionFlagsPrintTheVersionCommand(t *testing.T) {
	dir := t.TempDir()
	want := runIn(t, dir, "version")
	if want.code != ExitOK || !strings.HasPrefix(want.stdout, "boxtax test\ncommit: ") {
		t.Fatalf("version: exit %d %q", want.code, want.stdout)
	}
	for _, a := range []string{"--version", "-V"} {
		if got := runIn(t, dir, a); got.code != ExitOK || got.stdout != want.stdout {
			t.Errorf("%s: exit %d %q, want %q", a, got.code, got.stdout, want.stdout)
		}
	}
}

// TestHelpShowsFlagsWithTwoDashes checks every command's help against Go's
// own PrintDefaults: the same flags, descriptions and defaults, only with
// --name for names longer than a letter.
func TestHelpShowsFlagsWithTwoDashes(t *testing.T) {
	g := &Globals{Getenv: os.Getenv}
	sets := commandFlagSets(context.Background(), g)
	if len(sets) < 10 {
		t.Fatalf("only %d commands with flags", len(sets))
	}
	header := regexp.MustCompile(`^  -(\S+)`)
	for _, c := range sets {
		t.Run(strings.Join(c.Words, " "), func(t *testing.T) {
			var ours, gos bytes.Buffer
			printFlags(&ours, c.Flags)
			c.Flags.SetOutput(&gos)
			c.Flags.PrintDefaults()
			if gos.Len() == 0 {
				if ours.Len() != 0 {
					t.Errorf("no flags, but help shows:\n%s", ours.String())
				}
				return
			}
			// Go's: "  -name type\n    \tusage (default x)", or on one
			// line for one-letter booleans. Bring both to one line per flag.
			var want []string
			for _, line := range strings.Split(strings.TrimSuffix(gos.String(), "\n"), "\n") {
				if m := header.FindStringSubmatch(line); m != nil {
					h := "  " + dashed(m[1])
					rest := strings.TrimPrefix(line, "  -"+m[1])
					name, usage, _ := strings.Cut(rest, "\t")
					want = append(want, h+strings.ToUpper(name)+"|"+usage)
					continue
				}
				// Ours leaves out Go's default after a description that
				// names its own.
				if i := strings.LastIndex(line, " (default "); i >= 0 && strings.Contains(want[len(want)-1]+line[:i], "(default") {
					line = line[:i]
				}
				want[len(want)-1] += strings.TrimPrefix(strings.TrimPrefix(line, "    \t"), "|")
			}
			var got []string
			for _, line := range strings.Split(strings.TrimSuffix(ours.String(), "\n"), "\n") {
				if strings.HasPrefix(line, "        ") {
					got[len(got)-1] += strings.TrimPrefix(line, "        ")
					continue
				}
				got = append(got, line+"|")
			}
			for i := range want {
				want[i] = strings.Replace(want[i], "\n", "", -1)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("help differs from Go's defaults:\nours:\n%s\ngo's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for _, line := range got {
				if flagWord, _, _ := strings.Cut(line, "|"); strings.HasPrefix(line, "  -") && !strings.HasPrefix(line, "  --") && len(strings.Fields(flagWord)[0]) > 2 {
					t.Errorf("one dash: %s", line)
				}
			}
		})
	}
}

// printFlags writes fs's flags as Go's PrintDefaults does, with two dashes:
// "--db STRING" over its description and default (unless the description
// names it). Flags of one letter
// keep one dash (-i, -o), as users expect.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) { printFlag(w, f) })
}
