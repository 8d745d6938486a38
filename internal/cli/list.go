package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/termtext"
	"github.com/boxtax/boxtax/internal/workload"
)

var listKinds = []string{"workloads", "envs", "options", "studies"}

var listFormats = []string{"table", "json"}

// listOptions are the flags of `boxtax list`.
type listOptions struct {
	Kind   string // workloads, envs, options, studies
	Name   string // list workloads NAME: that workload alone
	DB     string
	Format string // table or json
	// Wide shows every column (a workload's seed tool and metrics) and
	// cuts no line.
	// Without it, a table on a terminal is cut to the terminal's width.
	Wide bool
}

func listCmd(ctx context.Context, g *Globals, args []string) error {
	o := listOptions{}
	fs := newFlags(g, "list", "workloads [NAME]|envs|options|studies [--format table|json] [--wide] [--db FILE]")
	fs.StringVar(&o.DB, "db", defaultDB(g), "database whose stored studies 'list studies' shows too ("+dbDefaultHelp+")")
	fs.StringVar(&o.Format, "format", "table", "output format: "+strings.Join(listFormats, " or ")+" (every field, with workloads' parameters and metrics)")
	fs.BoolVar(&o.Wide, "wide", false, "table: every column (workloads' seed tools and metrics), lines not cut to the terminal's width")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("say what to list: %s", strings.Join(listKinds, ", "))
	}
	if o.Format != "table" && o.Format != "json" {
		return usagef("unknown --format %q%s; formats: %s", o.Format, termtext.DidYouMean(o.Format, listFormats), strings.Join(listFormats, ", "))
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
		return usagef("cannot list %q%s; valid: %s", pos[0], termtext.DidYouMean(pos[0], listKinds), strings.Join(listKinds, ", "))
	}
	switch {
	case len(pos) == 2 && o.Kind == "workloads":
		return showWorkload(g, pos[1], o.Format)
	case len(pos) > 1:
		return usagef("list %s takes no name (only list workloads NAME shows one), got %q", o.Kind, strings.Join(pos[1:], " "))
	}
	width := 0 // no cutting
	if o.Format == "table" && !o.Wide && g.IsTerminal != nil && g.IsTerminal(g.Stdout) {
		width = terminalWidth(g)
	}
	return list(ctx, g, o, width)
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
			optRows = append(optRows, newOptionRow(info))
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
		return printJSON(g.Stdout, rows)
	}
	tw.Flush()
	if cutLines(g.Stdout, termtext.Visible(table.String()), width) { // stored studies' names
		fmt.Fprintf(g.Stderr, "(lines cut to %d columns: --wide or --format json for everything)\n", width)
	}
	return nil
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
