package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
)

// flagOutput is the output of a command's flag set. Go's flag package
// writes its own error messages ("flag provided but not defined: -x") to
// it, which are dropped: parse says them once, in boxtax's words (flagError).
// It also remembers the command, so that parse can print the help itself,
// to stdout when asked for with -h or --help.
type flagOutput struct {
	g         *Globals
	name      string // "run", "fleet run"
	argsUsage string
}

func (o *flagOutput) Write(p []byte) (int, error) { return len(p), nil }

// printHelp writes the usage line and every flag of fs, as --name VALUE,
// in the command's groups (helpGroups), then its examples.
func (o *flagOutput) printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: boxtax %s %s\n", o.name, o.argsUsage)
	printGroupedFlags(w, o.name, fs)
	if ex := helpExamples[o.name]; ex != "" {
		fmt.Fprintf(w, "\nExamples:\n%s", ex)
	}
}

// printFlag writes one flag as printFlags does.
func printFlag(w io.Writer, f *flag.Flag) {
	var b strings.Builder
	b.WriteString("  " + dashed(f.Name))
	name, usage := flag.UnquoteUsage(f)
	if name != "" {
		b.WriteString(" " + strings.ToUpper(name))
	}
	b.WriteString("\n        ")
	b.WriteString(strings.ReplaceAll(usage, "\n", "\n        "))
	// A description that names its default ("default $BOXTAX_DB, else
	// boxtax.db", "default: the study's") is not followed by Go's.
	if !isZeroDefault(f) && !strings.Contains(usage, "(default") {
		if isStringFlag(f) {
			fmt.Fprintf(&b, " (default %q)", f.DefValue)
		} else {
			fmt.Fprintf(&b, " (default %v)", f.DefValue)
		}
	}
	fmt.Fprintln(w, b.String())
}

// dashed is how a flag is written on the command line: -i, --db. Go's
// flag package accepts one or two dashes for either.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// isZeroDefault tells whether f's default is its type's zero value, which
// the help leaves out, as Go's PrintDefaults does.
func isZeroDefault(f *flag.Flag) (zero bool) {
	typ := reflect.TypeOf(f.Value)
	var z reflect.Value
	if typ.Kind() == reflect.Pointer {
		z = reflect.New(typ.Elem())
	} else {
		z = reflect.Zero(typ)
	}
	defer func() {
		if recover() != nil {
			zero = f.DefValue == "" // a String method that needs its target
		}
	}()
	return f.DefValue == z.Interface().(flag.Value).String()
}

func isStringFlag(f *flag.Flag) bool {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	_, ok = g.Get().(string)
	return ok
}

// parseError turns what fs.Parse returned into parse's error: the help on
// stdout when asked for, else a usage error that names the flag once, with
// --, and ends in a short usage line (flagError).
func parseError(fs *flag.FlagSet, err error) error {
	o, ok := fs.Output().(*flagOutput)
	if errors.Is(err, flag.ErrHelp) {
		if ok {
			o.printHelp(o.g.Stdout, fs)
		}
		return err
	}
	return usageError{flagError(fs, err)}
}

// flagCommand is a command line that has its own flag set: "run", or
// "fleet run" (a command and its verb).
type flagCommand struct {
	Words []string // the command and its verb
	Flags *flag.FlagSet
}

// commandFlagSets returns the flag set of every command that has one, in
// the order of their names, read from the commands themselves: each is
// asked for its help with collectFlags set, so it stops at parse without
// doing anything. Internal commands (worker) are left out.
func commandFlagSets(ctx context.Context, g *Globals) []flagCommand {
	var out []flagCommand
	cmds := commands()
	for _, n := range publicCommands(cmds) {
		var words []string
		switch n {
		case "fleet":
			words = []string{"fleet", "run"}
		case "image":
			words = []string{"image", "from-host"}
		default:
			words = []string{n}
		}
		var got *flag.FlagSet
		quiet := &Globals{Stdout: io.Discard, Stderr: io.Discard, Getenv: g.Getenv, Version: g.Version,
			Executable: g.Executable, IsTerminal: func(io.Writer) bool { return false },
			collectFlags: func(fs *flag.FlagSet) { got = fs }}
		_ = cmds[n].run(ctx, quiet, append(slices.Clone(words[1:]), "--help"))
		if got != nil {
			out = append(out, flagCommand{words, got})
		}
	}
	return out
}
