// Command verdicts prints the verdict of every primary cell of the latest
// study in a boxtax database as the study answers (result.Decide: the
// firm verdicts of the stored samples, the report's, at the margin the
// study's precision or 2 %; -plain: the verdicts of the 95 % intervals
// alone, as the study answered before firm verdicts), one line a cell,
// tab-separated:
//
//	cell  verdict  overhead%  lo  hi  rounds
//
// verdict is cost+ or cost- (the interval excludes 0, above or below the
// baseline), none (no difference beyond the margin) or undecided. As the
// study's own rule, the unpaired intervals carry the spread between the
// earlier studies of the same host in the database and this one (-alone:
// this study's own runs only). It feeds bench/time-to-answer.sh and
// bench/replicate.sh:
//
//	go run ./bench/verdicts -margin 2 study.db
//	go run ./bench/verdicts -margin 2 -paired study.db   # paired by round
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
	_ "github.com/boxtax/boxtax/internal/workload/all" // which metrics are primary, as in boxtax itself
)

func main() {
	margin := flag.Float64("margin", 0, "the margin p of no difference beyond ±p % (default: the study's precision, else 2)")
	paired := flag.Bool("paired", false, "pair each cell's runs with the baseline's of the same round (result.Decide)")
	id := flag.Int64("study", 0, "the study to judge (default: the database's latest)")
	plain := flag.Bool("plain", false, "the verdicts of the 95 % intervals alone (a cost where it excludes 0), not the firm ones the study gives")
	alone := flag.Bool("alone", false, "judge the study on its own runs, without the spread between earlier studies of the host")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: verdicts [-margin P] [-paired] [-alone] [-plain] [-study N] STUDY.db")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *id, *margin, *paired, *alone, *plain); err != nil {
		fmt.Fprintln(os.Stderr, "verdicts:", err)
		os.Exit(1)
	}
}

func run(path string, id int64, margin float64, paired, alone, plain bool) error {
	ctx := context.Background()
	db, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	if id == 0 {
		latest, err := db.LatestStudy(ctx, false)
		if err != nil {
			return err
		}
		id = latest.ID
	}
	st, err := study.Open(ctx, db, id)
	if err != nil {
		return err
	}
	lay := st.Spec.Layout()
	if !alone {
		lay.Earlier = st.Earlier
	}
	if margin > 0 {
		lay.MarginPct = margin
	}
	d := result.Decide(lay, st.Runs, st.Samples, paired)
	for _, c := range d.Cells {
		v := c.Verdict
		if plain && v.Decision == stats.Undecided {
			v.Decision = v.Leans // what the 95 % interval alone shows
		}
		verdict := "undecided"
		switch {
		case v.Decision == stats.Costs && v.Pct > 0:
			verdict = "cost+"
		case v.Decision == stats.Costs:
			verdict = "cost-"
		case v.Decision == stats.NoDifference:
			verdict = "none"
		}
		fmt.Printf("%s\t%s\t%.2f\t%.2f\t%.2f\t%d\n", c.Name(), verdict, v.Pct, v.LoPct, v.HiPct, v.N)
	}
	return nil
}
