package cli

import (
	"flag"
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/termtext"
)

// Go's flag package words its errors with one dash and, for a bad value,
// wraps the Set error, which often names the flag itself already.
var (
	flagUndefined = lazyRegexp(`^flag provided but not defined: -+(.*)$`)
	flagNoValue   = lazyRegexp(`^flag needs an argument: -+(.*)$`)
	flagBadValue  = lazyRegexp(`(?s)^invalid (?:boolean )?value "(.*)" for (?:flag )?-+([^:]+): (.*)$`)
)

// flagError rewrites an error of fs.Parse in boxtax's words: the flag as
// it is written on the command line (--format, -o), named once, "did you
// mean" for an unknown flag, and a short usage line instead of every flag.
func flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	switch {
	case flagUndefined().MatchString(msg):
		name := flagUndefined().FindStringSubmatch(msg)[1]
		if n, _, ok := strings.Cut(name, "="); ok {
			name = n
		}
		msg = fmt.Sprintf("unknown flag %s", dashed(name))
		if c := termtext.Closest(name, flagNames(fs)); c != "" {
			msg += fmt.Sprintf("; did you mean %s?", dashed(c))
		}
	case flagNoValue().MatchString(msg):
		msg = fmt.Sprintf("%s needs a value", dashed(flagNoValue().FindStringSubmatch(msg)[1]))
	case flagBadValue().MatchString(msg):
		m := flagBadValue().FindStringSubmatch(msg)
		value, name, why := m[1], m[2], m[3]
		if strings.Contains(why, dashed(name)) {
			msg = why // the flag's own error names it already
		} else {
			msg = fmt.Sprintf("%s %q: %s", dashed(name), value, why)
		}
	}
	return fmt.Errorf("%s\n%s", msg, shortUsage(fs))
}

// shortUsage is the one line a usage error ends with: how the command is
// written and where its help is.
func shortUsage(fs *flag.FlagSet) string {
	name, args := fs.Name(), "[flags]"
	if o, ok := fs.Output().(*flagOutput); ok {
		name = o.name
		args, _, _ = strings.Cut(o.argsUsage, "\n")
		args, _, _ = strings.Cut(args, "  (") // run's note on STUDY
	}
	return fmt.Sprintf("usage: boxtax %s %s; boxtax help %s for more", name, strings.TrimSpace(args), name)
}

// flagNames is every flag fs defines.
func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}
