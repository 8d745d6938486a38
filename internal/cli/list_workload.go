package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/boxtax/boxtax/internal/termtext"
	"github.com/boxtax/boxtax/internal/workload"
)

// showWorkload prints one workload (list workloads NAME): its summary, the
// seed tool, its parameters with their defaults and its metrics; an unknown
// name is a usage error with the nearest valid one.
func showWorkload(g *Globals, name, format string) error {
	w, err := workload.Lookup(name)
	if err != nil {
		return usageError{err}
	}
	info := w.Info()
	if format == "json" {
		return printJSON(g.Stdout, info)
	}
	fmt.Fprintf(g.Stdout, "%s: %s\n", info.Name, info.Summary)
	if info.SeedTool != "" {
		fmt.Fprintf(g.Stdout, "seed tool: %s\n", info.SeedTool)
	}
	tw := tabwriter.NewWriter(g.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nPARAMETER\tDEFAULT\tDESCRIPTION")
	for _, p := range info.Params {
		def := fmt.Sprint(p.Default)
		if p.Required {
			def = "(required)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", p.Name, termtext.Visible(def), oneLine(p.Description))
	}
	fmt.Fprintln(tw, "\nMETRIC\tUNIT\tBETTER\tDESCRIPTION")
	for _, m := range info.Metrics {
		better := "lower"
		if m.HigherIsBetter {
			better = "higher"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.Name, m.Unit, better, oneLine(m.Description))
	}
	return tw.Flush()
}

// printJSON writes v to w as indented JSON, the form of every --format json
// of the list and sysinfo commands.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
