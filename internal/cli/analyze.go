package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/analysis"
	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/termtext"
)

// analyzeOptions are the flags of `boxtax analyze`.
type analyzeOptions struct {
	DBs        []string // databases; each one's latest study unless Studies is set
	Studies    []int64  // study ids, looked up in every database
	Workload   string
	CSV        string
	Responses  []string
	Model      string
	Factors    []string // CSV: categorical columns besides the model's
	RunColumn  string   // CSV: the column naming each row's run
	Appearance bool     // CSV: levels in order of appearance, not sorted
	References map[string]string
	Unit       string // slice, run or both
	Format     string // table or json
	Output     string
}

// stringList is a flag that may be given several times or comma-separated.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, splitList(v)...); return nil }

func analyzeCmd(ctx context.Context, g *Globals, args []string) error {
	var o analyzeOptions
	var dbs stringList
	var studies, responses, factors, refs, levels string
	fs := newFlags(g, "analyze", "[flags]   (a stored study, or --csv FILE)")
	fs.Var(&dbs, "db", "SQLite database(s) to read; repeat to combine studies, e.g. from two kernels ("+dbDefaultHelp+")")
	fs.StringVar(&studies, "study", "", "study id(s), comma-separated, in every --db (default: each database's latest, and in a database merged from a fleet its latest on every device, with host as a factor)")
	fs.StringVar(&o.Workload, "workload", "", "analyse only this workload (default: each one in the studies)")
	fs.StringVar(&o.CSV, "csv", "", "analyse a CSV of your own instead: a header line, one row per observation")
	fs.StringVar(&responses, "responses", "", "comma-separated responses: series or metrics of a study, numeric columns of a CSV (default for rt.periodic: oh1_ns,work_ns,oh2_ns,sleep_ns)")
	fs.StringVar(&o.Model, "model", "", `model formula in R's notation, e.g. "env + kernel + load + env:kernel" or "env*load" (default: every factor that varies, and env:kernel)`)
	fs.StringVar(&factors, "factors", "", "CSV: categorical columns; with no --model, their main effects are the model")
	fs.StringVar(&o.RunColumn, "run-column", "", "CSV: a column naming the run of each row, for the per-run analysis")
	fs.StringVar(&levels, "levels", "sorted", "CSV: order of factor levels, the first the reference: sorted (as R's factor()) or appearance")
	fs.StringVar(&refs, "reference", "", "reference levels, e.g. deployment=native,kernel=vanilla")
	fs.StringVar(&o.Unit, "unit", "both", "observations to analyse: slice (every one), run (one mean per run) or both")
	fs.StringVar(&o.Format, "format", "table", formatHelp(analyzeFormats))
	fs.StringVar(&o.Output, "o", "", "write to this file instead of stdout")
	if err := parseNoArgs(fs, args, "use --db, --study or --csv"); err != nil {
		return err
	}
	if err := resolveFormat(fs, &o.Format, o.Output, analyzeFormats); err != nil {
		return err
	}
	if len(dbs) == 0 && o.CSV == "" {
		dbs = stringList{defaultDB(g)}
	}
	o.DBs, o.Responses, o.Factors = dbs, splitList(responses), splitList(factors)
	for _, s := range splitList(studies) {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return usagef("--study %q is not a study id", s)
		}
		o.Studies = append(o.Studies, id)
	}
	var err error
	if o.References, err = analysis.ParseReferences(refs); err != nil {
		return usagef("--reference: %v", err)
	}
	switch levels {
	case "sorted":
	case "appearance":
		o.Appearance = true
	default:
		return usagef("--levels %q: use sorted or appearance", levels)
	}
	switch o.Unit {
	case "slice", "run", "both":
	default:
		return usagef("--unit %q: use slice, run or both", o.Unit)
	}
	if o.Format != "table" && o.Format != "json" {
		return usagef("unknown format %q; formats: table, json", o.Format)
	}
	if o.CSV != "" && (len(o.DBs) > 0 || len(o.Studies) > 0 || o.Workload != "") {
		return usagef("--csv analyses a file of your own: leave out --db, --study and --workload")
	}
	if o.CSV == "" && (len(o.Factors) > 0 || o.RunColumn != "" || o.Appearance) {
		return usagef("--factors, --run-column and --levels are for --csv")
	}
	return runAnalyze(ctx, g, o)
}

// runAnalyze reads the data, analyses every dataset and writes the tables.
func runAnalyze(ctx context.Context, g *Globals, o analyzeOptions) error {
	var datasets []*analysis.Dataset
	var err error
	if o.CSV != "" {
		datasets, err = csvDatasets(ctx, o)
	} else {
		datasets, err = studyDatasets(ctx, o)
	}
	if err != nil {
		return err
	}
	var results []*analysis.Result
	for _, d := range datasets {
		if o.Unit != "both" && d.Unit != o.Unit {
			continue
		}
		r, err := analysis.Analyze(ctx, d, o.Model)
		if errors.Is(err, analysis.ErrNoResidualDF) && o.Unit == "both" {
			// Too few runs for the run-level test: say so and go on.
			fmt.Fprintf(g.Stderr, "boxtax analyze: %s per %s left out: %v; repeat each scenario at least twice\n", termtext.Visible(d.Workload), d.Unit, err)
			continue
		}
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return usageError{err}
		}
		results = append(results, r)
	}
	if len(results) == 0 {
		return usagef("nothing to analyse per %s: the responses are not series (slices), so only --unit run applies", o.Unit)
	}
	return writeOutput(g, o.Output, append(append([]string(nil), o.DBs...), o.CSV), func(out io.Writer) error {
		if o.Format == "json" {
			return analysis.WriteJSON(out, results)
		}
		return analysis.WriteText(out, results)
	})
}

// readerUntil reads r until ctx ends, then fails with ctx's error, so
// that Ctrl-C stops the reading of a CSV of gigabytes.
type readerUntil struct {
	ctx context.Context
	r   io.Reader
}

func (u readerUntil) Read(p []byte) (int, error) {
	if err := u.ctx.Err(); err != nil {
		return 0, err
	}
	return u.r.Read(p)
}

func csvDatasets(ctx context.Context, o analyzeOptions) ([]*analysis.Dataset, error) {
	factors := o.Factors
	model := o.Model
	if model == "" {
		if len(factors) == 0 {
			return nil, usagef("--csv needs --model (or --factors, for their main effects)")
		}
		model = strings.Join(factors, " + ")
	}
	factors, err := analysis.ModelFactors(model, factors)
	if err != nil {
		return nil, usageError{err}
	}
	if len(o.Responses) == 0 {
		return nil, usagef("--csv needs --responses: the numeric columns to analyse")
	}
	f, err := os.Open(o.CSV)
	if err != nil {
		return nil, usageError{err}
	}
	defer f.Close()
	rows, runs, err := analysis.ReadCSV(readerUntil{ctx, f}, analysis.CSVOptions{Name: filepath.Base(o.CSV), Responses: o.Responses, Factors: factors,
		RunColumn: o.RunColumn, AppearanceOrder: o.Appearance, References: o.References})
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, usagef("%s: %v", o.CSV, err)
	}
	rows.DefaultModel = model
	out := []*analysis.Dataset{rows}
	if runs != nil {
		runs.DefaultModel = model
		out = append(out, runs)
	}
	return out, nil
}

func studyDatasets(ctx context.Context, o analyzeOptions) ([]*analysis.Dataset, error) {
	paths := o.DBs
	if len(paths) == 0 {
		paths = []string{"boxtax.db"}
	}
	var studies []*study.Stored
	for _, p := range paths {
		db, err := openExisting(ctx, p)
		if err != nil {
			return nil, err
		}
		defer db.Close()
		ids := o.Studies
		if len(ids) == 0 {
			// The latest study, and in a database merged from a fleet the
			// same study on every other device: host becomes a factor.
			studies, err := deviceStudies(ctx, db, 0)
			if err != nil {
				return nil, err
			}
			for _, s := range studies {
				ids = append(ids, s.ID)
			}
		}
		for _, id := range ids {
			s, err := study.Open(ctx, db, id)
			if err != nil {
				return nil, usageError{err}
			}
			studies = append(studies, s)
		}
	}
	ds, err := analysis.FromStudies(ctx, studies, analysis.StudyOptions{Workload: o.Workload, Responses: o.Responses,
		References: o.References, RunsOnly: o.Unit == "run"})
	if err != nil {
		return nil, usageError{err}
	}
	return ds, nil
}
