package cli

import (
	"context"
	"flag"
	"sort"
	"strings"

	"github.com/boxtax/boxtax/internal/study"
)

var completionShells = []string{"bash", "zsh", "fish"}

// completionCmd prints a shell completion script. The commands and their
// flags come from the commands' own flag sets, the names from the
// registries, so the script is as current as the binary that printed it.
func completionCmd(ctx context.Context, g *Globals, args []string) error {
	fs := newFlags(g, "completion", "bash|zsh|fish\n\n"+
		"Prints a completion script to stdout. Load it for this shell with\n"+
		"  source <(boxtax completion bash)            (bash; zsh alike)\n"+
		"  boxtax completion fish | source             (fish)\n"+
		"or install it, e.g. boxtax completion bash > /etc/bash_completion.d/boxtax")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("name a shell: %s", strings.Join(completionShells, ", "))
	}
	c := newCompletion(ctx, g)
	switch pos[0] {
	case "bash":
		c.bash(g.Stdout, false)
	case "zsh":
		c.bash(g.Stdout, true)
	case "fish":
		c.fish(g.Stdout)
	default:
		return usagef("no completion for shell %q; shells: %s", pos[0], strings.Join(completionShells, ", "))
	}
	return nil
}

// completion is what a script completes.
type completion struct {
	commands []string          // command names, worker left out
	summary  map[string]string // command: its summary
	verbs    map[string]string // command with one verb: it (fleet: run)
	flags    []flagCommand
	// values completes a flag's value ("--envs") or, under "", a command's
	// positional arguments; lists marks comma-separated flag values.
	values map[string]map[string][]string
	lists  map[string]bool
}

func newCompletion(ctx context.Context, g *Globals) completion {
	cmds := commands()
	c := completion{summary: map[string]string{}, verbs: map[string]string{"fleet": "run", "image": "from-host"},
		flags: commandFlagSets(ctx, g), lists: map[string]bool{}}
	for _, n := range publicCommands(cmds) {
		c.commands = append(c.commands, n)
		c.summary[n] = cmds[n].summary
	}
	c.values = map[string]map[string][]string{
		"run":        {"": study.Presets()},
		"fleet run":  {"": study.Presets()},
		"list":       {"": listKinds, "--format": listFormats},
		"completion": {"": completionShells},
		"help":       {"": c.commands},
	}
	for _, fc := range c.flags {
		key := strings.Join(fc.Words, " ")
		fc.Flags.VisitAll(func(f *flag.Flag) {
			v, list := flagValues(key, f)
			if v == nil {
				return
			}
			if c.values[key] == nil {
				c.values[key] = map[string][]string{}
			}
			c.values[key][dashed(f.Name)] = v
			if list {
				c.lists[dashed(f.Name)] = true
			}
		})
	}
	return c
}

// shellWord quotes s for sh-like shells.
func shellWord(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// sortedKeys is m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
