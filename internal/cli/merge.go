package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
)

// mergeOptions are the arguments of `boxtax merge`.
type mergeOptions struct {
	Out    string   // the database to merge into; created when missing
	Inputs []string // the databases to copy the studies of
}

func mergeCmd(ctx context.Context, g *Globals, args []string) error {
	fs := newFlags(g, "merge", "OUT.db IN.db...\n\nCopies the studies of every IN.db (with runs, samples, series and host facts) into OUT.db,\nunder new ids. A study already in OUT.db is skipped (merging a file twice adds nothing),\nor replaced when IN.db has more of its runs done (a study resumed since). Each input is\none transaction: a file that is not a boxtax database is refused and OUT.db stays as it was.")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usagef("name the output database and at least one input: boxtax merge fleet.db pi3.db pi4.db")
	}
	return mergeDatabases(ctx, g.Stderr, mergeOptions{Out: pos[0], Inputs: pos[1:]})
}

// mergeDatabases merges every input into o.Out, saying what each added. An
// input that fails is reported and the others are still merged; the error
// then names every input that failed.
func mergeDatabases(ctx context.Context, w io.Writer, o mergeOptions) error {
	if fi, err := os.Stat(o.Out); err == nil && fi.Size() > 0 {
		if err := store.CheckOutput(ctx, o.Out); err != nil {
			return usagef("will not merge into %s: %v", o.Out, err)
		}
	}
	out, err := store.Open(ctx, o.Out)
	if err != nil {
		return err
	}
	defer out.Close()
	var failed []string
	for _, in := range o.Inputs {
		res, err := out.Merge(ctx, in)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
			fmt.Fprintf(w, "%s: not merged: %v\n", in, err)
			failed = append(failed, in)
			continue
		}
		describeMerge(w, out, res)
	}
	if len(failed) > 0 {
		err := fmt.Errorf("%d of %d inputs not merged (%s); %s holds the others", len(failed), len(o.Inputs), strings.Join(failed, ", "), o.Out)
		for _, in := range failed {
			if _, statErr := os.Stat(in); statErr == nil {
				return exitError{ExitError, err}
			}
		}
		return usageError{err}
	}
	return nil
}

func describeMerge(w io.Writer, out *store.Store, res store.MergeResult) {
	line := func(verb string, m store.MergedStudy) {
		host := "?"
		if st, err := out.Study(context.Background(), m.ToID); err == nil {
			host = study.DeviceOf(st)
		}
		if verb == "skipped" {
			fmt.Fprintf(w, "%s: skipped study %d %q (%s, host %s): already in %s as study %d\n", res.Input, m.FromID, m.Name, m.Status, host, out.Path(), m.ToID)
			return
		}
		fmt.Fprintf(w, "%s: %s study %d %q (%s, host %s) as study %d of %s: %d runs, %d samples, %d series chunks\n",
			res.Input, verb, m.FromID, m.Name, m.Status, host, m.ToID, out.Path(), m.Runs, m.Samples, m.Chunks)
	}
	for _, m := range res.Added {
		line("added", m)
	}
	for _, m := range res.Updated {
		line("updated", m)
	}
	for _, m := range res.Skipped {
		line("skipped", m)
	}
	if len(res.Added)+len(res.Updated)+len(res.Skipped) == 0 {
		fmt.Fprintf(w, "%s: no studies in it\n", res.Input)
	}
}
