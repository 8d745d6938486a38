package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// helpGroup is a titled group of a command's flags in its help.
type helpGroup struct {
	Title string
	// Has tells whether a flag belongs to the group.
	Has func(f *flag.Flag) bool
}

// helpGroups are the groups of each command's flags after its other
// flags; a command without groups shows one list.
var helpGroups = map[string][]helpGroup{
	"run": {{
		Title: "Your own program (--cmd, --image and the flags that go with them)",
		Has: func(f *flag.Flag) bool {
			return f.Name == "cmd" || f.Name == "image" || strings.HasPrefix(f.Usage, "with --cmd")
		},
	}},
}

// helpExamples are the examples at the end of a command's help.
var helpExamples = map[string]string{
	"run": `  boxtax run                                  the quick preset: a few workloads, native and in Docker
  boxtax run seed001-cpu --reps paper         a published study, as many rounds as it had
  boxtax run --workloads cpu.prime --envs native,docker-bridge --reps auto
  boxtax run --cmd 'gzip -c data.bin' --envs native,docker-bridge
                                              your own program, natively and in each environment
  boxtax run --cmd 'sysbench cpu --time=2 run' --envs native,docker-host --warmup 1
  boxtax run --image my-service --envs native,docker-bridge,podman-bridge
                                              your image's own program, natively from the image's files (chroot)
  boxtax run --resume                         finish the study an interrupted run left
See docs/user-guide.md, "Your own program in three steps" and "Your image in three steps".
`,
	"report": `  boxtax report                               the latest study as a table
  boxtax report -o report.html                a page with plots (the format from the extension)
  boxtax report --study 3 --format md         Markdown
  boxtax report --max-overhead '*:*=10%'      exit 4 when an overhead beyond noise exceeds 10 %
`,
	"compare": `  boxtax compare pi3.db pi4.db                the latest study of each, side by side
  boxtax compare 3 4 -o cmp.md                studies 3 and 4 of boxtax.db, as Markdown
`,
}

// printGroupedFlags writes fs's flags under "Flags:", those of a group of
// the command under the group's title.
func printGroupedFlags(w io.Writer, command string, fs *flag.FlagSet) {
	groups := helpGroups[command]
	inGroup := func(f *flag.Flag) int {
		for i, g := range groups {
			if g.Has(f) {
				return i
			}
		}
		return -1
	}
	fmt.Fprintf(w, "\nFlags:\n")
	fs.VisitAll(func(f *flag.Flag) {
		if inGroup(f) < 0 {
			printFlag(w, f)
		}
	})
	for i, g := range groups {
		fmt.Fprintf(w, "\n%s:\n", g.Title)
		fs.VisitAll(func(f *flag.Flag) {
			if inGroup(f) == i {
				printFlag(w, f)
			}
		})
	}
}
