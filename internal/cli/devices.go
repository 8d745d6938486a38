package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/formats"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/termtext"
)

// deviceStudy is the study one device contributed to a database.
type deviceStudy struct {
	Label string // the device label
	ID    int64
}

// deviceStudies finds, in a database merged from a fleet, the study ref
// (0: the latest) and, for every other device, its latest study of the
// same name: one study per device, ordered by device label.
func deviceStudies(ctx context.Context, db *store.Store, ref int64) ([]deviceStudy, error) {
	id, err := resolveStudy(ctx, db, ref)
	if err != nil {
		return nil, err
	}
	refSt, err := db.Study(ctx, id)
	if err != nil {
		return nil, usageError{err}
	}
	all, err := db.Studies(ctx)
	if err != nil {
		return nil, err
	}
	byLabel := map[string]int64{study.DeviceOf(refSt): refSt.ID}
	for _, st := range all { // oldest first: a later study of a device wins
		label := study.DeviceOf(st)
		if st.Name != refSt.Name || byLabel[label] == refSt.ID {
			continue
		}
		byLabel[label] = st.ID
	}
	var out []deviceStudy
	for label, id := range byLabel {
		out = append(out, deviceStudy{Label: label, ID: id})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out, nil
}

// writeByHost is report --by host: the study on every device of the
// database, a column group per device.
func writeByHost(ctx context.Context, g *Globals, o reportOptions) error {
	if valid := formats.Devices(); !slices.Contains(valid, o.Format) {
		return usagef("unknown format %q for --by host; valid formats: %v", o.Format, valid)
	}
	db, err := openExisting(ctx, o.DB)
	if err != nil {
		return err
	}
	defer db.Close()
	studies, err := deviceStudies(ctx, db, o.StudyID)
	if err != nil {
		return err
	}
	var reps []*report.Report
	for _, s := range studies {
		rep, err := buildReport(ctx, db, s.ID)
		if err != nil {
			return err
		}
		reps = append(reps, rep)
	}
	if len(studies) == 1 {
		fmt.Fprintf(g.Stderr, "note: %s holds study %q of one device only (%s); merge the others in with boxtax merge\n", o.DB, termtext.Visible(reps[0].Study.Name), termtext.Visible(studies[0].Label))
	}
	return writeOutput(g, o.Output, []string{o.DB}, func(out io.Writer) error {
		return formats.ByName[o.Format].Devices(out, report.NewDevices(reps))
	})
}

// deviceRefs names the latest study of every device in a database merged
// from a fleet, for compare FILE.
func deviceRefs(ctx context.Context, path string) ([]studyRef, error) {
	db, err := openExisting(ctx, path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	studies, err := deviceStudies(ctx, db, 0)
	if err != nil {
		return nil, err
	}
	if len(studies) < 2 {
		return nil, usagef("%s holds one device's studies only: name a second study (FILE, FILE:ID or ID), or merge other devices in with boxtax merge", path)
	}
	var refs []studyRef
	for _, s := range studies {
		refs = append(refs, studyRef{Label: s.Label, Path: path, ID: s.ID})
	}
	return refs, nil
}
