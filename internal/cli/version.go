package cli

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
)

// internalCommands are commands boxtax runs itself (the worker, in a
// container or natively): they work, but --help, completion and "did you
// mean" leave them out.
var internalCommands = []string{"worker"}

// publicCommands is the names of cmds a user types, in order.
func publicCommands(cmds map[string]command) []string {
	var out []string
	for _, n := range sortedKeys(cmds) {
		if !slices.Contains(internalCommands, n) {
			out = append(out, n)
		}
	}
	return out
}

// versionCmd prints the version, the commit it was built from (when the
// build recorded it), the Go version and the platform: what a bug report
// needs.
func versionCmd(_ context.Context, g *Globals, args []string) error {
	fs := newFlags(g, "version", "")
	if err := parseNoArgs(fs, args, ""); err != nil {
		return err
	}
	commit, dirty := "unknown", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision":
				commit = s.Value
			case s.Key == "vcs.modified" && s.Value == "true":
				dirty = " (modified)"
			}
		}
	}
	fmt.Fprintf(g.Stdout, "boxtax %s\ncommit:   %s%s\ngo:       %s\nplatform: %s/%s\n", g.Version, commit, dirty, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}
