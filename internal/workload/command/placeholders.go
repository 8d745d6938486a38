package command

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/lazyre"
	"github.com/boxtax/boxtax/internal/workload"
)

// placeholderRe is a {NAME} in a command: a name of letters, digits and _
// in braces (so {} and awk's {print $1} are left alone).
var placeholderRe = lazyre.New(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// placeholderName is a name a placeholder may have.
var placeholderName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Substitute replaces every {NAME} in argv with values[NAME], as
// hyperfine's parameters are; a NAME without a value is an error naming
// the known ones. param names argv in messages.
func Substitute(argv []string, values map[string]string, param string) ([]string, error) {
	out := make([]string, len(argv))
	var unknown []string
	for i, a := range argv {
		out[i] = placeholderRe.Get().ReplaceAllStringFunc(a, func(m string) string {
			name := m[1 : len(m)-1]
			v, ok := values[name]
			if !ok {
				unknown = append(unknown, m)
				return m
			}
			return v
		})
	}
	if len(unknown) == 0 {
		return out, nil
	}
	known := "none"
	if len(values) > 0 {
		known = strings.Join(slices.Sorted(maps.Keys(values)), ", ")
	}
	return nil, fmt.Errorf("parameter %s: %s names no parameter; known parameters: %s (give one with --param NAME=V1,V2, or under placeholders)",
		param, strings.Join(slices.Compact(unknown), ", "), known)
}

// substitute replaces the {NAME}s of the commands (the cmd workload's; a
// nil placeholders is cmd.server's client, whose braces are its own).
func (c *config) substitute() error {
	if c.placeholders == nil {
		return nil
	}
	for name := range c.placeholders {
		if !placeholderName.Get().MatchString(name) {
			return fmt.Errorf("parameter placeholders: %q is not a name of letters, digits and _ (starting with a letter)", name)
		}
	}
	for _, cmd := range []struct {
		name string
		argv *[]string
	}{{"cmd", &c.argv}, {"setup", &c.setup}, {"prepare", &c.prepare}} {
		argv, err := Substitute(*cmd.argv, c.placeholders, cmd.name)
		if err != nil {
			return err
		}
		*cmd.argv = argv
	}
	return nil
}

// substituteParams is p with the {NAME}s of the named commands replaced
// by the values of its placeholders parameter.
func substituteParams(p workload.Params, commands ...string) (workload.Params, error) {
	values, err := mapParam(p, "placeholders")
	if err != nil {
		return nil, err
	}
	out := maps.Clone(p)
	for _, name := range commands {
		argv, err := argvParam(p, name)
		if err != nil || len(argv) == 0 {
			continue // Configure says what is wrong with it
		}
		if argv, err = Substitute(argv, values, name); err != nil {
			return nil, err
		}
		words := make([]any, len(argv))
		for i, a := range argv {
			words[i] = a
		}
		out[name] = words
	}
	return out, nil
}
