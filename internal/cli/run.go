package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/gate"
	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/papers"
	"github.com/boxtax/boxtax/internal/report/tables"
	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/termtext"
)

// runOptions are the flags of `boxtax run`: the study's options, and what
// is printed and gated at the end.
type runOptions struct {
	study.Options
	Quiet       bool        // no table at the end, no progress lines
	MaxOverhead []gate.Rule // --max-overhead: the overhead gate
	// FailUndecided is --fail-undecided: cells not shown within their
	// limit fail the gate too.
	FailUndecided bool
}

func runCmd(ctx context.Context, g *Globals, args []string) error {
	o := runOptions{Options: study.NewOptions()}
	fs := newFlags(g, "run", "[STUDY] [flags]   (STUDY: a preset name or a YAML file; default quick)")
	addStoreFlags(fs, &o.Options, defaultDB(g), dbDefaultHelp)
	addRunFlags(fs, &o.Options)
	addCommandFlags(fs, &o.Command)
	fs.BoolVar(&o.Quiet, "quiet", false, "print neither the progress lines nor the table at the end (warnings and failed runs still)")
	fs.BoolVar(&o.Quiet, "q", false, "same as --quiet")
	addGateFlag(fs, &o.MaxOverhead, &o.FailUndecided)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		o.Study = pos[0]
	}
	if err := checkRunOptions(o.Options, fs); err != nil {
		return usageError{err}
	}
	if len(pos) > 1 {
		return usagef("one study at a time, got %s", strings.Join(pos, " "))
	}
	return runStudy(ctx, g, o)
}

// runStudy runs (or resumes) the study, prints its table and judges the
// gate: exit 3 when runs failed, 4 when the gate failed.
func runStudy(ctx context.Context, g *Globals, o runOptions) error {
	p := studyProcess(g, o.MaxOverhead)
	if o.Quiet {
		p.Log, p.Terminal = quietLog(p.Log), false
	}
	st, err := study.Run(ctx, o.Options, p)
	if err != nil {
		return runError(o.DB, st, err)
	}
	rep := report.FromStudy(st, false)
	baselineAgainstEarlier(ctx, g, o, rep)
	if !o.Quiet {
		if err := tables.WriteTable(terminalOut(g), rep); err != nil {
			return err
		}
	}
	gateErr := finishGate(g, judgeGate(o.MaxOverhead, rep, o.FailUndecided))
	if rep.Runs.Failed > 0 { // incomplete numbers: exit 3 wins over the gate's 4
		return exitError{ExitRunsFailed, fmt.Errorf("%d of %d runs failed (reasons above and in: boxtax report --db %s --study %d)", rep.Runs.Failed, rep.Runs.Total, o.DB, st.ID)}
	}
	return gateErr
}

// baselineAgainstEarlier says, after the run's end lines, where the
// study's baseline lies outside what earlier studies of the same host in
// its database measured (report.BaselineMoves): the table prints them
// first among its warnings; with --quiet they are printed here, as
// warnings are. The study is stored either way: an earlier study that
// cannot be read is said in a note, not an error.
func baselineAgainstEarlier(ctx context.Context, g *Globals, o runOptions, rep *report.Report) {
	db, err := openExisting(ctx, o.DB)
	if err != nil {
		fmt.Fprintf(g.Stderr, "note: the baseline was not held against earlier studies: %v\n", err)
		return
	}
	defer db.Close()
	moves, err := noteBaselineMoves(ctx, db, rep)
	if err != nil {
		fmt.Fprintf(g.Stderr, "note: the baseline was not held against earlier studies: %v\n", err)
		return
	}
	if o.Quiet {
		for _, m := range moves {
			fmt.Fprintln(g.Stderr, "moved: "+termtext.Visible(m.Text))
		}
	}
}

// studyProcess is what study.Run needs from this process: the binary
// workers run as, stderr, the container label of this controller, the
// papers with published values and the gate's check of the spec (the host
// facts are study.Run's own).
func studyProcess(g *Globals, rules []gate.Rule) study.Process {
	return study.Process{
		Env: env.Options{BinaryPath: g.Executable, Version: g.Version, Getenv: g.Getenv},
		Log: g.Stderr, Terminal: g.IsTerminal(g.Stderr),
		Labels:   map[string]string{ControllerLabel: controllerID()},
		PaperIDs: papers.IDs(),
		Check:    func(spec *study.Spec) error { return checkGateSpec(rules, spec) },
	}
}

// ControllerLabel marks the containers of one boxtax process: host/pid.
const ControllerLabel = "io.boxtax.controller"

func controllerID() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s/%d", host, os.Getpid())
}
