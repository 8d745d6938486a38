package cli

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/boxtax/boxtax/internal/hostimage"
)

// imageCommands are the subcommands of boxtax image.
var imageCommands = map[string]struct {
	summary string
	run     func(ctx context.Context, g *Globals, args []string) error
}{
	"from-host": {"build a local image holding host programs with their libraries", imageFromHostCmd},
}

func imageCmd(ctx context.Context, g *Globals, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		w := g.Stdout // asked for: stdout, exit 0
		if len(args) == 0 {
			w = g.Stderr
		}
		fmt.Fprintf(w, "Usage: boxtax image from-host [--tag NAME] [--file PATH]... PATH...\n\n"+
			"  from-host  %s\n\nRun 'boxtax image from-host --help' for its flags.\n", imageCommands["from-host"].summary)
		if len(args) == 0 {
			return usagef("name an image command: from-host")
		}
		return flag.ErrHelp
	}
	sub, ok := imageCommands[args[0]]
	if !ok {
		return usagef("unknown image command %q; image commands: from-host", args[0])
	}
	return sub.run(ctx, g, args[1:])
}

// pathList is a flag given once per path; commas are part of the path.
type pathList []string

func (l *pathList) String() string     { return strings.Join(*l, " ") }
func (l *pathList) Set(v string) error { *l = append(*l, v); return nil }

func imageFromHostCmd(ctx context.Context, g *Globals, args []string) error {
	fs := newFlags(g, "image from-host", "[--tag NAME] [--file PATH]... PATH...")
	var o hostimage.FromHostOptions
	var files pathList
	fs.StringVar(&o.Tag, "tag", "", "name[:tag] of the image (default boxtax-<first program>:<hash of the files>)")
	fs.Var(&files, "file", "a host file or directory (whole) to add at the same path: plugins opened with dlopen, configuration, data; repeatable")
	programs, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(programs) == 0 {
		return usagef("name at least one executable, e.g. boxtax image from-host /usr/bin/redis-server")
	}
	o.Files, o.Version = files, g.Version
	res, err := hostimage.FromHostGetenv(ctx, g.Getenv, programs, o)
	if hostimage.IsUserError(err) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	printFromHost(g, res)
	return nil
}

func printFromHost(g *Globals, res hostimage.FromHostResult) {
	w := g.Stdout
	s := res.Summary
	state := "built now"
	if !res.Built {
		state = "already there with the same files"
	}
	fmt.Fprintf(w, "tag          %s\n", res.Tag)
	fmt.Fprintf(w, "image id     %s (%s)\n", res.Image.ID, state)
	fmt.Fprintf(w, "size         %.1f MB\n", float64(res.Image.SizeBytes)/1e6)
	fmt.Fprintf(w, "programs     %s\n", strings.Join(s.Programs, " "))
	if len(s.Interpreters) > 0 {
		fmt.Fprintf(w, "interpreter  %s\n", strings.Join(s.Interpreters, " "))
	}
	names := make([]string, len(s.Libraries))
	for i, l := range s.Libraries {
		names[i] = filepath.Base(l)
	}
	fmt.Fprintf(w, "libraries    %d: %s\n", len(s.Libraries), strings.Join(names, " "))
	if len(s.Libraries) > 0 {
		fmt.Fprintf(w, "             in %s\n", strings.Join(libraryDirs(s.Libraries), " "))
	}
	if s.Extras > 0 {
		fmt.Fprintf(w, "--file       %d files, links and directories\n", s.Extras)
	}
	fmt.Fprintf(w, "generated    %s, /tmp (1777)\n", strings.Join(s.Generated, " "))
	fmt.Fprintf(w, "in all       %d files (%.1f MB), %d symlinks, %d directories; files hash %s\n",
		s.Files, float64(s.Bytes)/1e6, s.Symlinks, s.Dirs, res.Hash[:12])
	fmt.Fprintf(w, "run it       docker run --rm %s %s\n", res.Tag, s.Programs[0])
}

// libraryDirs lists the directories of the libraries, in first-seen order.
func libraryDirs(libs []string) []string {
	var dirs []string
	seen := map[string]bool{}
	for _, l := range libs {
		if d := filepath.Dir(l); !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return dirs
}
