package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/formats"
	"github.com/boxtax/boxtax/internal/termtext"
)

// compareOptions are the flags and arguments of `boxtax compare`.
type compareOptions struct {
	DB      string // the database of studies named by id alone
	Format  string
	Output  string
	Studies []studyRef // the first is the reference
	// IgnoreDifferences puts side by side cells that ran other commands
	// or parameters (refused without it).
	IgnoreDifferences bool
}

// studyRef names one study: a database file and a study id (0: its latest).
type studyRef struct {
	Label string // as the user wrote it
	Path  string
	ID    int64
}

func compareCmd(ctx context.Context, g *Globals, args []string) error {
	o := compareOptions{}
	fs := newFlags(g, "compare", "STUDY STUDY... [flags]\n\nSTUDY is FILE (its latest study), FILE:ID, or ID alone (a study in --db).\nThe first STUDY is the reference the others are compared with.\nWith one FILE merged from a fleet (boxtax merge): its latest study on every device.")
	fs.StringVar(&o.DB, "db", defaultDB(g), "database of the studies named by ID alone ("+dbDefaultHelp+")")
	fs.StringVar(&o.Format, "format", "table", formatHelp(formats.Compare()))
	fs.StringVar(&o.Output, "o", "", "write to this file instead of stdout")
	fs.BoolVar(&o.IgnoreDifferences, "ignore-differences", false, "compare cells even when they ran other commands or parameters (listed above the table)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if err := resolveFormat(fs, &o.Format, o.Output, formats.Compare()); err != nil {
		return err
	}
	if len(pos) == 1 {
		if ref, err := parseStudyRef(pos[0], o.DB); err != nil || ref.ID != 0 {
			return usagef("compare needs at least two studies (e.g. boxtax compare --db %s %s 2), or one database merged from several devices; %q names one study", o.DB, pos[0], pos[0])
		}
		refs, err := deviceRefs(ctx, pos[0])
		if err != nil {
			return err
		}
		o.Studies = refs
		return compareStudies(ctx, g, o)
	}
	if len(pos) < 2 {
		return usagef("name one database merged from several devices, or at least two studies to compare, e.g. boxtax compare pi3.db pi4.db:2 (FILE, FILE:ID or ID of a study in --db)")
	}
	for _, a := range pos {
		ref, err := parseStudyRef(a, o.DB)
		if err != nil {
			return err
		}
		o.Studies = append(o.Studies, ref)
	}
	return compareStudies(ctx, g, o)
}

// parseStudyRef reads FILE, FILE:ID, :ID or ID. A bare number names a study
// in defaultDB unless a file of that name exists.
func parseStudyRef(arg, defaultDB string) (studyRef, error) {
	ref := studyRef{Label: arg, Path: arg}
	if i := strings.LastIndex(arg, ":"); i >= 0 {
		id, err := strconv.ParseInt(arg[i+1:], 10, 64)
		if err != nil || id <= 0 {
			return ref, usagef("study %q: after the colon comes a study id (a positive number), e.g. a.db:3", arg)
		}
		ref.Path, ref.ID = arg[:i], id
		if ref.Path == "" {
			ref.Path = defaultDB
		}
		return ref, nil
	}
	if id, err := strconv.ParseInt(arg, 10, 64); err == nil && id > 0 {
		if _, statErr := os.Stat(arg); statErr != nil {
			ref.Path, ref.ID = defaultDB, id
		}
	}
	return ref, nil
}

func compareStudies(ctx context.Context, g *Globals, o compareOptions) error {
	if valid := formats.Compare(); !slices.Contains(valid, o.Format) {
		return usagef("unknown comparison format %q; valid formats: %s", o.Format, strings.Join(valid, ", "))
	}
	var labels []string
	var reps []*report.Report
	for _, ref := range o.Studies {
		rep, err := loadStudy(ctx, ref)
		if err != nil {
			return fmt.Errorf("%s: %w", ref.Label, err)
		}
		labels, reps = append(labels, ref.Label), append(reps, rep)
	}
	cmp := report.Compare(labels, reps)
	if len(cmp.Rows) == 0 {
		return usagef("the studies share no cell (same workload, environment, levels and metric): nothing to compare")
	}
	if err := refuseDifferences(cmp, o.IgnoreDifferences); err != nil {
		return err
	}
	dbs := []string{o.DB}
	for _, ref := range o.Studies {
		dbs = append(dbs, ref.Path)
	}
	return writeOutput(g, o.Output, dbs, func(out io.Writer) error {
		return formats.ByName[o.Format].Compare(out, cmp)
	})
}

func loadStudy(ctx context.Context, ref studyRef) (*report.Report, error) {
	db, id, err := openStudyDB(ctx, ref.Path, ref.ID)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return buildReport(ctx, db, id)
}

// refuseDifferences refuses to put side by side cells that ran other
// commands or parameters, naming them, unless told to go ahead.
func refuseDifferences(cmp *report.Comparison, ignore bool) error {
	if ignore || len(cmp.Differences) == 0 {
		return nil
	}
	var lines []string
	for i, d := range cmp.Differences {
		if i == 5 {
			lines = append(lines, fmt.Sprintf("and %d more", len(cmp.Differences)-i))
			break
		}
		lines = append(lines, termtext.Visible(d.String()))
	}
	return usagef("the studies ran other work in the cells they share, so a difference would not be the machine's or the environment's:\n  %s\ncompare studies of the same commands and parameters, or give --ignore-differences to compare them anyway",
		strings.Join(lines, "\n  "))
}
