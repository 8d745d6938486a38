package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/workload"
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
		flags: commandFlagSets(ctx, g), lists: map[string]bool{"--envs": true, "--workloads": true}}
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
			var v []string
			switch f.Name {
			case "envs":
				v = env.Names()
			case "workloads", "workload":
				v = workload.Names()
			default:
				return
			}
			if c.values[key] == nil {
				c.values[key] = map[string][]string{}
			}
			c.values[key]["--"+f.Name] = v
		})
	}
	return c
}

// shellWord quotes s for sh-like shells.
func shellWord(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (c completion) bash(w io.Writer, zsh bool) {
	fmt.Fprintf(w, "# boxtax completion for %s, printed by `boxtax completion %s`; load with: source <(boxtax completion %s)\n",
		map[bool]string{false: "bash", true: "zsh"}[zsh], map[bool]string{false: "bash", true: "zsh"}[zsh], map[bool]string{false: "bash", true: "zsh"}[zsh])
	if zsh {
		fmt.Fprintln(w, "# zsh runs the bash completion through bashcompinit.")
		fmt.Fprintln(w, "autoload -U +X compinit && compinit")
		fmt.Fprintln(w, "autoload -U +X bashcompinit && bashcompinit")
	}
	fmt.Fprintf(w, `_boxtax_words() {
    # $1: the candidates; a comma-separated list completes its last element.
    local cur="${COMP_WORDS[COMP_CWORD]}" pre=""
    if [[ -n "$2" && "$cur" == *,* ]]; then
        pre="${cur%%,*},"
        cur="${cur##*,}"
    fi
    COMPREPLY=($(compgen -P "$pre" -W "$1" -- "$cur"))
}

_boxtax() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
    if [[ $COMP_CWORD -eq 1 ]]; then
        _boxtax_words %s
        return
    fi
    local key="${COMP_WORDS[1]}"
    case "$key" in
`, shellWord(strings.Join(append(append([]string{}, c.commands...), "help", "--help", "--version"), " ")))
	verbs := sortedKeys(c.verbs)
	for _, cmd := range verbs {
		fmt.Fprintf(w, `    %s)
        if [[ $COMP_CWORD -eq 2 ]]; then
            _boxtax_words %s
            return
        fi
        key="$key ${COMP_WORDS[2]}" ;;
`, cmd, shellWord(c.verbs[cmd]))
	}
	fmt.Fprintln(w, "    esac")
	// A flag's value.
	fmt.Fprintln(w, `    case "$key|$prev" in`)
	for _, key := range sortedKeys(c.values) {
		for _, fl := range sortedKeys(c.values[key]) {
			if fl == "" {
				continue
			}
			list := ""
			if c.lists[fl] {
				list = " list"
			}
			fmt.Fprintf(w, "        %s) _boxtax_words %s%s; return ;;\n", shellWord(key+"|"+fl), shellWord(strings.Join(c.values[key][fl], " ")), list)
		}
	}
	for _, fc := range c.flags {
		var valued []string
		fc.Flags.VisitAll(func(f *flag.Flag) {
			if !isBoolFlag(f) && c.values[strings.Join(fc.Words, " ")]["--"+f.Name] == nil {
				valued = append(valued, shellWord(strings.Join(fc.Words, " ")+"|"+dashed(f.Name)))
				if len(f.Name) > 1 {
					valued = append(valued, shellWord(strings.Join(fc.Words, " ")+"|-"+f.Name))
				}
			}
		})
		if len(valued) > 0 {
			fmt.Fprintf(w, "        %s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", strings.Join(valued, "|"))
		}
	}
	fmt.Fprintln(w, "    esac")
	// A flag's name.
	fmt.Fprintln(w, `    if [[ "$cur" == -* ]]; then`)
	fmt.Fprintln(w, `        case "$key" in`)
	for _, fc := range c.flags {
		var names []string
		fc.Flags.VisitAll(func(f *flag.Flag) { names = append(names, dashed(f.Name)) })
		names = append(names, "--help")
		fmt.Fprintf(w, "            %s) _boxtax_words %s ;;\n", shellWord(strings.Join(fc.Words, " ")), shellWord(strings.Join(names, " ")))
	}
	fmt.Fprintln(w, "        esac\n        return\n    fi")
	// Positional arguments: names, else files.
	fmt.Fprintln(w, `    case "$key" in`)
	for _, key := range sortedKeys(c.values) {
		if v := c.values[key][""]; v != nil {
			files := ""
			if key == "run" || key == "fleet run" {
				files = "\n            COMPREPLY+=($(compgen -f -- \"$cur\"))"
			}
			fmt.Fprintf(w, "        %s)\n            _boxtax_words %s%s ;;\n", shellWord(key), shellWord(strings.Join(v, " ")), files)
		}
	}
	fmt.Fprintln(w, `        *) COMPREPLY=($(compgen -f -- "$cur")) ;;`)
	fmt.Fprintln(w, "    esac\n}\n\ncomplete -o filenames -F _boxtax boxtax")
}

func (c completion) fish(w io.Writer) {
	q := func(s string) string { return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'" }
	fmt.Fprintln(w, "# boxtax completion for fish, printed by `boxtax completion fish`; load with: boxtax completion fish | source")
	fmt.Fprintln(w, "complete -c boxtax -f")
	fmt.Fprintln(w, "complete -c boxtax -n __fish_use_subcommand -l help -d 'print help'")
	fmt.Fprintln(w, "complete -c boxtax -n __fish_use_subcommand -l version -d 'print the version'")
	for _, n := range c.commands {
		fmt.Fprintf(w, "complete -c boxtax -n __fish_use_subcommand -a %s -d %s\n", n, q(c.summary[n]))
	}
	fmt.Fprintln(w, "complete -c boxtax -n __fish_use_subcommand -a help -d 'print help, or a command\\'s'")
	for _, cmd := range sortedKeys(c.verbs) {
		fmt.Fprintf(w, "complete -c boxtax -n %s -a %s\n", q("__fish_seen_subcommand_from "+cmd+"; and not __fish_seen_subcommand_from "+c.verbs[cmd]), c.verbs[cmd])
	}
	cond := func(key string) string {
		words := strings.Fields(key)
		return q("__fish_seen_subcommand_from " + words[0])
	}
	for _, fc := range c.flags {
		key := strings.Join(fc.Words, " ")
		fc.Flags.VisitAll(func(f *flag.Flag) {
			opt := "-l " + f.Name
			if len(f.Name) == 1 {
				opt = "-s " + f.Name
			}
			_, usage := flag.UnquoteUsage(f)
			if usage, _, _ = strings.Cut(usage, "\n"); len(usage) > 100 {
				usage = usage[:strings.LastIndex(usage[:100], " ")] + " …"
			}
			arg := ""
			if v := c.values[key]["--"+f.Name]; v != nil {
				arg = " -x -a " + q(strings.Join(v, " "))
			} else if !isBoolFlag(f) {
				arg = " -r -F"
			}
			fmt.Fprintf(w, "complete -c boxtax -n %s %s%s -d %s\n", cond(key), opt, arg, q(usage))
		})
	}
	for _, key := range sortedKeys(c.values) {
		if v := c.values[key][""]; v != nil {
			files := ""
			if key == "run" || key == "fleet run" {
				files = " -F"
			}
			fmt.Fprintf(w, "complete -c boxtax -n %s%s -a %s\n", cond(key), files, q(strings.Join(v, " ")))
		}
	}
}

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
