package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
)

// reportOptions are the flags of `boxtax report`.
type reportOptions struct {
	DB      string
	StudyID int64 // 0: the latest
	Format  string
	Output  string // file; empty: stdout
}

func reportCmd(ctx context.Context, g *Globals, args []string) error {
	var o reportOptions
	fs := newFlags(g, "report", "[flags]")
	fs.StringVar(&o.DB, "db", "boxtax.db", "SQLite database file to read")
	fs.Int64Var(&o.StudyID, "study", 0, "study id (default: the latest)")
	fs.StringVar(&o.Format, "format", "table", "output format: table, markdown, csv, json")
	fs.StringVar(&o.Output, "o", "", "write to this file instead of stdout")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q (use --study ID)", pos[0])
	}
	return writeReport(ctx, g, o)
}

func writeReport(ctx context.Context, g *Globals, o reportOptions) error {
	if _, err := os.Stat(o.DB); err != nil {
		return usagef("no database at %s: run a study first (boxtax run) or pass --db", o.DB)
	}
	db, err := store.Open(ctx, o.DB)
	if err != nil {
		return err
	}
	defer db.Close()
	id := o.StudyID
	if id == 0 {
		st, err := db.LatestStudy(ctx, false)
		if err != nil {
			return usageError{err}
		}
		id = st.ID
	}
	rep, err := buildReport(ctx, db, id)
	if err != nil {
		return err
	}
	out := g.Stdout
	if o.Output != "" {
		f, err := os.Create(o.Output)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
	}
	if err := report.Write(out, o.Format, rep); err != nil {
		return usageError{err}
	}
	return nil
}

// buildReport loads a study and computes its report.
func buildReport(ctx context.Context, db *store.Store, id int64) (*report.Report, error) {
	st, err := db.Study(ctx, id)
	if err != nil {
		return nil, usageError{err}
	}
	runs, err := db.Runs(ctx, id)
	if err != nil {
		return nil, err
	}
	samples, err := db.Samples(ctx, id)
	if err != nil {
		return nil, err
	}
	return report.Build(st, layoutOf(st), runs, samples), nil
}

// layoutOf reads the baseline and the order of environments and workloads
// from the spec stored with the study.
func layoutOf(st store.Study) report.Layout {
	spec, err := study.ParseSpec(fmt.Sprintf("study %d", st.ID), []byte(st.SpecYAML))
	if err != nil {
		return report.Layout{}
	}
	_ = spec.Validate(env.Names()) // fills in the default baseline
	lay := report.Layout{Baseline: spec.Baseline, Envs: spec.EnvNames()}
	for _, w := range spec.Workloads {
		lay.Workloads = append(lay.Workloads, w.Name)
	}
	return lay
}
