package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/gate"
	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/formats"
	"github.com/boxtax/boxtax/internal/report/page"
	"github.com/boxtax/boxtax/internal/report/papers"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/termtext"
)

// reportOptions are the flags of `boxtax report`.
type reportOptions struct {
	DB       string
	StudyID  int64 // 0: the latest
	Format   string
	Output   string // file; empty: stdout
	Paper    string // --compare-paper: the published study to put beside this one; empty: none
	PlotsDir string // --plots: write every plot as SVG into this directory
	PNG      bool   // --png: and as PNG, through rsvg-convert
	Paired   bool   // --paired: overhead intervals paired by round
	By       string // --by host: the study on every device of a merged database
	History  bool   // --history: every cell's verdict over the studies of one host
	// MaxOverhead is --max-overhead: the overhead gate.
	MaxOverhead []gate.Rule
	// --fail-undecided; --precision: the verdict's ±p (0: the study's, else 2).
	FailUndecided bool
	PrecisionPct  float64
}

// DefaultPaper is the published study --compare-paper compares with when
// given no name and the study's spec names none (paper: id).
const DefaultPaper = "krylovskiy2015"

// studyPaper is what --compare-paper alone stands for until the study is
// read: the paper its spec names.
const studyPaper = "(the study's)"

// paperFlag is --compare-paper[=PAPER]: alone it means DefaultPaper.
type paperFlag struct{ dst *string }

func (p paperFlag) String() string {
	if p.dst == nil {
		return ""
	}
	return *p.dst
}

func (p paperFlag) Set(s string) error {
	switch s {
	case "true":
		*p.dst = studyPaper
	case "false":
		*p.dst = ""
	default:
		*p.dst = s
	}
	return nil
}

func (p paperFlag) IsBoolFlag() bool { return true }

func reportCmd(ctx context.Context, g *Globals, args []string) error {
	var o reportOptions
	fs := newFlags(g, "report", "[flags]")
	fs.StringVar(&o.DB, "db", defaultDB(g), "SQLite database file to read ("+dbDefaultHelp+")")
	fs.Int64Var(&o.StudyID, "study", 0, "study id (default: the latest)")
	fs.StringVar(&o.Format, "format", "table", formatHelp(formats.Report()))
	fs.StringVar(&o.Output, "o", "", "write to this file instead of stdout")
	fs.Var(paperFlag{&o.Paper}, "compare-paper", "print a published study's tables beside this one's numbers: --compare-paper (the paper the study's spec names, else "+DefaultPaper+") or --compare-paper=PAPER, one of "+strings.Join(papers.IDs(), ", "))
	fs.StringVar(&o.PlotsDir, "plots", "", "also write every plot as an SVG file into this directory")
	fs.BoolVar(&o.Paired, "paired", false, "overhead intervals, p-values and stars paired by round (the runs are randomized complete blocks): drift between rounds drops out")
	fs.BoolVar(&o.PNG, "png", false, "with --plots: also write each plot as PNG (needs rsvg-convert, Debian package librsvg2-bin)")
	fs.BoolVar(&o.History, "history", false, "every cell's overhead with its interval and verdict over the studies of the host that ran --study (default: the latest), oldest first, contradicting verdicts first (formats: "+strings.Join(formats.History(), ", ")+")")
	fs.StringVar(&o.By, "by", "", "host: the study on every device of a database merged from a fleet, a column group per device (formats: "+strings.Join(formats.Devices(), ", ")+")")
	addGateFlag(fs, &o.MaxOverhead, &o.FailUndecided)
	fs.Var((*percentFlag)(&o.PrecisionPct), "precision", "the verdict's margin p: \"no difference beyond ±p%\" when the overhead's whole 95% interval lies inside it (default: the study's --precision, else 2%)")
	if err := parseNoArgs(fs, args, "use --study ID"); err != nil {
		return err
	}
	if err := resolveFormat(fs, &o.Format, o.Output, reportFormats(o)); err != nil {
		return err
	}
	if o.History {
		if o.By != "" || o.Paper != "" || o.PlotsDir != "" || len(o.MaxOverhead) > 0 || o.Paired {
			return usagef("--history puts the studies of one host side by side: leave out --by, --compare-paper, --plots, --paired and --max-overhead (a single study's report takes them)")
		}
		return writeHistory(ctx, g, o)
	}
	switch o.By {
	case "":
	case "host", "device":
		if o.Paper != "" || o.PlotsDir != "" || len(o.MaxOverhead) > 0 {
			return usagef("--by host writes one report of every device: leave out --compare-paper, --plots and --max-overhead (gate each device's study with --study ID)")
		}
		return writeByHost(ctx, g, o)
	default:
		return usagef("--by %q: the one dimension to split by is host", o.By)
	}
	if o.PNG && o.PlotsDir == "" {
		return usagef("--png needs --plots DIR: the directory to write the images to")
	}
	return writeReport(ctx, g, o)
}

func writeReport(ctx context.Context, g *Globals, o reportOptions) error {
	valid := reportFormats(o)
	if !slices.Contains(valid, o.Format) {
		return usagef("unknown report format %q%s; valid formats: %s", o.Format, termtext.DidYouMean(o.Format, valid), strings.Join(valid, ", "))
	}
	var rsvg string
	if o.PNG {
		p, err := exec.LookPath("rsvg-convert")
		if err != nil {
			return usagef("--png needs rsvg-convert to turn the SVG plots into PNG; install it (Debian: apt-get install librsvg2-bin) or leave out --png to get SVG files only")
		}
		rsvg = p
	}
	db, id, err := openStudyDB(ctx, o.DB, o.StudyID)
	if err != nil {
		return err
	}
	defer db.Close()
	s, err := openStudy(ctx, db, id)
	if err != nil {
		return err
	}
	rep := report.FromStudy(s, o.Paired)
	rep.Decide(o.PrecisionPct)
	if _, err := noteBaselineMoves(ctx, db, rep); err != nil {
		fmt.Fprintf(g.Stderr, "note: the baseline was not held against earlier studies: %v\n", err)
	}
	if err := checkGateReport(o.MaxOverhead, rep); err != nil {
		return err
	}
	judged := judgeGate(o.MaxOverhead, rep, o.FailUndecided)
	if o.Format == "html" || o.PlotsDir != "" {
		if err := rep.LoadSeries(ctx, s); err != nil {
			return err
		}
	}
	var cmps []report.PaperComparison
	if o.Paper == studyPaper {
		o.Paper = rep.Study.Repetitions.PaperID
		if o.Paper == "" {
			o.Paper = DefaultPaper
		}
	}
	if o.Paper != "" {
		if cmps, err = papers.Compare(rep, o.Paper); err != nil {
			return usageError{err}
		}
	}
	err = writeOutput(g, o.Output, []string{o.DB}, func(out io.Writer) error {
		f := formats.ByName[o.Format]
		var werr error
		if o.Paper != "" {
			werr = f.Paper(out, rep, cmps)
		} else {
			werr = f.Report(out, rep)
		}
		if werr != nil {
			return usageError{werr}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if o.PlotsDir != "" {
		if err := writePlots(ctx, g, rep, o.PlotsDir, rsvg); err != nil {
			return err
		}
	}
	return finishGate(g, judged)
}

// openStudy reads a stored study; an unknown id is the user's mistake.
func openStudy(ctx context.Context, db *store.Store, id int64) (*study.Stored, error) {
	s, err := study.Open(ctx, db, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, usageError{err}
	}
	return s, err
}

// buildReport reads a stored study and computes its report.
func buildReport(ctx context.Context, db *store.Store, id int64) (*report.Report, error) {
	s, err := openStudy(ctx, db, id)
	if err != nil {
		return nil, err
	}
	return report.FromStudy(s, false), nil
}

// writePlots writes every plot of the report as SVG into dir and, given
// rsvg-convert, as PNG beside it, each file as -o writes one.
func writePlots(ctx context.Context, g *Globals, rep *report.Report, dir, rsvg string) error {
	if err := checkOutputDir(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o777); err != nil { // less the umask
		return fmt.Errorf("creating the plot directory: %w", err)
	}
	files := report.PlotFiles(page.Figures(rep))
	for _, pf := range files {
		svg := filepath.Join(dir, pf.Name)
		if err := writeFileAt(svg, func(w io.Writer) error { _, err := w.Write(pf.SVG); return err }); err != nil {
			return fmt.Errorf("writing plot: %w", err)
		}
		if rsvg == "" {
			continue
		}
		cmd := exec.CommandContext(ctx, rsvg, "--zoom", "2")
		cmd.Stdin = bytes.NewReader(pf.SVG)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		png, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("converting %s to PNG with %s: %v: %s", svg, rsvg, err, strings.TrimSpace(stderr.String()))
		}
		if err := writeFileAt(strings.TrimSuffix(svg, ".svg")+".png", func(w io.Writer) error { _, err := w.Write(png); return err }); err != nil {
			return fmt.Errorf("writing plot: %w", err)
		}
	}
	what := "SVG"
	if rsvg != "" {
		what = "SVG and PNG"
	}
	fmt.Fprintf(g.Stderr, "wrote %d plots (%s) to %s\n", len(files), what, filepath.Clean(dir))
	return nil
}
