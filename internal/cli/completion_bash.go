package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// bash writes the bash completion script (zsh runs it through
// bashcompinit).
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
