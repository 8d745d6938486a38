package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/formats"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/termtext"
)

// hostStudies lists the studies in db of the machine that ran study id
// (study.SameMachine on the recorded host facts), oldest first, up to
// and including id.
func hostStudies(ctx context.Context, db *store.Store, id int64) ([]store.Study, error) {
	all, err := db.Studies(ctx)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(all, func(s store.Study) bool { return s.ID == id })
	if i < 0 {
		return nil, usagef("no study %d in %s: boxtax list studies shows the ids", id, db.Path())
	}
	var out []store.Study
	for _, s := range all[:i+1] {
		if s.ID == id || study.SameMachine(all[i], s) {
			out = append(out, s)
		}
	}
	return out, nil
}

// noteBaselineMoves holds rep's baseline against the earlier studies of
// the same host in db (study.EarlierStudies) and notes where it lies
// outside what they measured (report.BaselineMoves): the report's first
// warnings. It returns the moves.
func noteBaselineMoves(ctx context.Context, db *store.Store, rep *report.Report) ([]report.BaselineMove, error) {
	st, err := db.Study(ctx, rep.Study.ID)
	if err != nil {
		return nil, err
	}
	studies, err := study.EarlierStudies(ctx, db, st)
	if err != nil {
		return nil, err
	}
	var earlier []*report.Report
	for _, s := range studies {
		// Only their baselines' values are compared: their own earlier
		// studies are not read (study.OpenOwn).
		st, err := study.OpenOwn(ctx, db, s.ID)
		if err != nil {
			return nil, fmt.Errorf("reading study %d to compare this one's baseline with: %w", s.ID, err)
		}
		earlier = append(earlier, report.FromStudy(st, false))
	}
	moves := report.BaselineMoves(rep, earlier)
	rep.NoteBaselineMoves(moves)
	return moves, nil
}

// writeHistory is report --history: every cell's verdict over the studies
// of the host that ran --study (default: the latest), oldest first.
func writeHistory(ctx context.Context, g *Globals, o reportOptions) error {
	if valid := formats.History(); !slices.Contains(valid, o.Format) {
		return usagef("unknown format %q for report --history; valid formats: %s", o.Format, strings.Join(valid, ", "))
	}
	db, id, err := openStudyDB(ctx, o.DB, o.StudyID)
	if err != nil {
		return err
	}
	defer db.Close()
	studies, err := hostStudies(ctx, db, id)
	if err != nil {
		return err
	}
	var reps []*report.Report
	for _, s := range studies {
		rep, err := buildReport(ctx, db, s.ID)
		if err != nil {
			return err
		}
		rep.Decide(o.PrecisionPct)
		reps = append(reps, rep)
	}
	h, _ := report.NewHistory(reps)
	if len(h.Studies) == 1 {
		fmt.Fprintf(g.Stderr, "note: %s holds one study of %s (%d); a history needs more: run the study again (boxtax run --db %s)\n",
			o.DB, termtext.Visible(h.Host), id, o.DB)
	}
	return writeOutput(g, o.Output, []string{o.DB}, func(out io.Writer) error {
		return formats.ByName[o.Format].History(out, h)
	})
}
