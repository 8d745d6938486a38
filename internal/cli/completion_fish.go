package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// fish writes the fish completion script.
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
