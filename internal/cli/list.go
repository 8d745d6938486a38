package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/workload"
)

var listKinds = []string{"workloads", "envs", "studies"}

var listFormats = []string{"table", "json"}

func listCmd(ctx context.Context, g *Globals, args []string) error {
	var db string
	fs := newFlags(g, "list", "workloads|envs|studies [--db FILE]")
	fs.StringVar(&db, "db", "boxtax.db", "database whose stored studies 'list studies' shows too")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("say what to list: %s", strings.Join(listKinds, ", "))
	}
	tw := tabwriter.NewWriter(g.Stdout, 0, 0, 2, ' ', 0)
	defer tw.Flush()
	switch pos[0] {
	case "workloads", "workload":
		fmt.Fprintln(tw, "WORKLOAD\tMETRICS\tSEED TOOL\tSUMMARY")
		for _, w := range workload.All() {
			info := w.Info()
			var metrics []string
			for _, m := range info.Metrics {
				metrics = append(metrics, m.Name)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", info.Name, strings.Join(metrics, ","), info.SeedTool, info.Summary)
		}
	case "envs", "env", "environments":
		fmt.Fprintln(tw, "ENV\tAVAILABLE\tDESCRIPTION")
		opened := map[string]env.Environment{}
		defer func() {
			// Closed together, so that environments sharing a service
			// (Podman's) start it once.
			if err := env.CloseAll(ctx, opened); err != nil {
				fmt.Fprintf(g.Stderr, "warning: %v\n", err)
			}
		}()
		for _, n := range env.Names() {
			e, _ := env.New(n, env.Options{BinaryPath: g.Executable, Version: g.Version})
			avail := "yes"
			if err := e.Available(ctx); err != nil {
				avail = "no: " + oneLine(err.Error())
			}
			opened[n] = e
			fmt.Fprintf(tw, "%s\t%s\t%s\n", n, avail, e.Description())
		}
	case "studies", "study", "presets":
		fmt.Fprintln(tw, "PRESET\tREPS\tPAPER\tDESCRIPTION")
		for _, n := range study.Presets() {
			spec, err := study.Preset(n)
			desc, reps, paper := "", "", "–"
			if err == nil {
				desc, reps = oneLine(spec.Description), fmt.Sprint(spec.Repetitions)
				if reps == "0" {
					reps = fmt.Sprint(study.DefaultRepetitions)
				}
				if p := spec.Paper; p != nil {
					paper = fmt.Sprintf("%s, %d runs", p.ID, p.Repetitions)
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", n, reps, paper, desc)
		}
		return listStored(ctx, tw, db)
	default:
		return usagef("cannot list %q; valid: %s", pos[0], strings.Join(listKinds, ", "))
	}
	return nil
}

// listStored adds the studies stored in db, if the file exists.
func listStored(ctx context.Context, tw *tabwriter.Writer, path string) error {
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	s, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		return err
	}
	defer s.Close()
	studies, err := s.Studies(ctx)
	if err != nil || len(studies) == 0 {
		return err
	}
	fmt.Fprintf(tw, "\nSTORED IN %s\tSTATUS\tCREATED\n", path)
	for _, st := range studies {
		fmt.Fprintf(tw, "%d %s\t%s\t%s\n", st.ID, st.Name, st.Status, st.CreatedAt.Format("2006-01-02 15:04:05"))
	}
	return nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
