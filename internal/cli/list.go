package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/termtext"
	"github.com/boxtax/boxtax/internal/workload"
)

var listKinds = []string{"workloads", "envs", "options", "studies"}

var listFormats = []string{"table", "json"}

// listOptions are the flags of `boxtax list`.
type listOptions struct {
	Kind   string // workloads, envs, studies
	DB     string
	Format string // table or json
	// Wide shows every column (a workload's seed tool and metrics) and
	// cuts no line.
	// Without it, a table on a terminal is cut to the terminal's width.
	Wide bool
}

func listCmd(ctx context.Context, g *Globals, args []string) error {
	o := listOptions{}
	fs := newFlags(g, "list", "workloads|envs|options|studies [--format table|json] [--wide] [--db FILE]")
	fs.StringVar(&o.DB, "db", defaultDB(g), "database whose stored studies 'list studies' shows too ("+dbDefaultHelp+")")
	fs.StringVar(&o.Format, "format", "table", "output format: "+strings.Join(listFormats, " or ")+" (every field, with workloads' parameters and metrics)")
	fs.BoolVar(&o.Wide, "wide", false, "table: every column (workloads' seed tools and metrics), lines not cut to the terminal's width")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("say what to list: %s", strings.Join(listKinds, ", "))
	}
	if o.Format != "table" && o.Format != "json" {
		return usagef("unknown --format %q; formats: %s", o.Format, strings.Join(listFormats, ", "))
	}
	switch pos[0] {
	case "workloads", "workload":
		o.Kind = "workloads"
	case "envs", "env", "environments":
		o.Kind = "envs"
	case "options", "option", "env-options":
		o.Kind = "options"
	case "studies", "study", "presets":
		o.Kind = "studies"
	default:
		return usagef("cannot list %q; valid: %s", pos[0], strings.Join(listKinds, ", "))
	}
	width := 0 // no cutting
	if o.Format == "table" && !o.Wide && g.IsTerminal != nil && g.IsTerminal(g.Stdout) {
		width = terminalWidth(g)
	}
	return list(ctx, g, o, width)
}

// envRow is one environment in `list envs`.
type envRow struct {
	Name        string `json:"name"`
	Available   bool   `json:"available"`
	Reason      string `json:"reason,omitempty"` // why not available
	Description string `json:"description"`
}

// optionRow is one environment option in `list options`.
type optionRow struct {
	Key       string `json:"key"`
	Values    string `json:"values"`
	Default   string `json:"default"`
	Mechanism string `json:"mechanism"`
	Envs      string `json:"envs"`
}

// studyRow is one study in `list studies`: a preset, or one stored in --db.
type studyRow struct {
	Kind        string    `json:"kind"` // preset or stored
	Name        string    `json:"name"`
	Repetitions int       `json:"repetitions,omitempty"`
	Paper       *paperRow `json:"paper,omitempty"`
	Description string    `json:"description,omitempty"`
	ID          int64     `json:"id,omitempty"`     // stored
	DB          string    `json:"db,omitempty"`     // stored
	Status      string    `json:"status,omitempty"` // stored
	Created     time.Time `json:"created,omitzero"` // stored
}

type paperRow struct {
	ID          string `json:"id"`
	Repetitions int    `json:"repetitions"`
}

// list prints o.Kind; width > 0 cuts a table's lines to it.
func list(ctx context.Context, g *Globals, o listOptions, width int) error {
	var rows any
	var table bytes.Buffer
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	switch o.Kind {
	case "workloads":
		var infos []workload.Info
		// The seed tools and metrics are long: --wide, or the JSON.
		if o.Wide {
			fmt.Fprintln(tw, "WORKLOAD\tSEED TOOL\tMETRICS\tSUMMARY")
		} else {
			fmt.Fprintln(tw, "WORKLOAD\tSUMMARY")
		}
		for _, w := range workload.All() {
			info := w.Info()
			infos = append(infos, info)
			if o.Wide {
				var metrics []string
				for _, m := range info.Metrics {
					metrics = append(metrics, m.Name)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", info.Name, info.SeedTool, strings.Join(metrics, ","), info.Summary)
			} else {
				fmt.Fprintf(tw, "%s\t%s\n", info.Name, info.Summary)
			}
		}
		rows = infos
	case "envs":
		envRows, err := listEnvs(ctx, g)
		if err != nil {
			return err
		}
		fmt.Fprintln(tw, "ENV\tAVAILABLE\tDESCRIPTION")
		for _, r := range envRows {
			avail := "yes"
			if !r.Available {
				avail = "no: " + r.Reason
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, avail, r.Description)
		}
		rows = envRows
	case "options":
		// Environment options: appended to an environment's name as
		// +key=value, e.g. docker-bridge+seccomp=unconfined.
		var optRows []optionRow
		fmt.Fprintln(tw, "OPTION\tVALUES\tENVS\tSWITCHES")
		for _, info := range env.OptionCatalogue() {
			optRows = append(optRows, optionRow{info.Key, info.Values, info.Default, info.Mechanism, info.Envs})
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", info.Key, info.Values, info.Envs, info.Mechanism)
		}
		rows = optRows
	case "studies":
		studyRows, err := listStudies(ctx, o.DB)
		if err != nil {
			return err
		}
		fmt.Fprintln(tw, "PRESET\tREPS\tPAPER\tDESCRIPTION")
		stored := false
		for _, r := range studyRows {
			if r.Kind == "stored" {
				if !stored {
					fmt.Fprintf(tw, "\nSTORED IN %s\tSTATUS\tCREATED\n", r.DB)
					stored = true
				}
				fmt.Fprintf(tw, "%d %s\t%s\t%s\n", r.ID, r.Name, r.Status, r.Created.Format("2006-01-02 15:04:05"))
				continue
			}
			reps, paper := "", "–"
			if r.Repetitions > 0 {
				reps = fmt.Sprint(r.Repetitions)
			}
			if p := r.Paper; p != nil {
				paper = fmt.Sprintf("%s, %d runs", p.ID, p.Repetitions)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Name, reps, paper, r.Description)
		}
		rows = studyRows
	}
	if o.Format == "json" {
		b, err := json.MarshalIndent(rows, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(g.Stdout, string(b))
		return err
	}
	tw.Flush()
	if cutLines(g.Stdout, termtext.Visible(table.String()), width) { // stored studies' names
		fmt.Fprintf(g.Stderr, "(lines cut to %d columns: --wide or --format json for everything)\n", width)
	}
	return nil
}

// listEnvs opens every environment to ask whether it can run here.
func listEnvs(ctx context.Context, g *Globals) (rows []envRow, err error) {
	opened := map[string]env.Environment{}
	defer func() {
		// Closed together, so that environments sharing a service
		// (Podman's) start it once.
		if err := env.CloseAll(ctx, opened); err != nil {
			warn(g, "%v", err)
		}
	}()
	for _, n := range env.Names() {
		e, _ := env.New(n, env.Options{BinaryPath: g.Executable, Version: g.Version})
		r := envRow{Name: n, Available: true, Description: e.Description()}
		if err := e.Available(ctx); err != nil {
			r.Available, r.Reason = false, oneLine(err.Error())
		}
		opened[n] = e
		rows = append(rows, r)
	}
	return rows, nil
}

// listStudies is the presets, then the studies stored in db if it exists.
func listStudies(ctx context.Context, db string) ([]studyRow, error) {
	var rows []studyRow
	for _, n := range study.Presets() {
		r := studyRow{Kind: "preset", Name: n}
		if spec, err := study.Preset(n); err == nil {
			r.Description, r.Repetitions = oneLine(spec.Description), spec.Repetitions
			if r.Repetitions == 0 {
				r.Repetitions = study.DefaultRepetitions
			}
			if p := spec.Paper; p != nil {
				r.Paper = &paperRow{p.ID, p.Repetitions}
			}
		}
		rows = append(rows, r)
	}
	s, err := store.OpenReadOnly(ctx, db)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, store.ErrEmpty) {
		return rows, nil // no stored studies yet
	}
	if err != nil {
		return nil, err
	}
	defer s.Close()
	studies, err := s.Studies(ctx)
	if err != nil {
		return nil, err
	}
	for _, st := range studies {
		rows = append(rows, studyRow{Kind: "stored", Name: st.Name, ID: st.ID, DB: db, Status: st.Status, Created: st.CreatedAt})
	}
	return rows, nil
}

// cutLines writes text, each line cut to width runes with "…" (width 0:
// whole lines), and tells whether it cut any.
func cutLines(w io.Writer, text string, width int) (cut bool) {
	for _, line := range strings.SplitAfter(text, "\n") {
		body := strings.TrimRight(line, " \n")
		if width > 0 && utf8.RuneCountInString(body) > width {
			body = string([]rune(body)[:width-1]) + "…"
			cut = true
		}
		if line != "" {
			fmt.Fprintln(w, body)
		}
	}
	return cut
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
