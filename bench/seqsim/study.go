package main

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
	_ "github.com/boxtax/boxtax/internal/workload/all" // which metrics are primary, as in boxtax itself
)

// simWorkload is one workload of the simulated default study: the seconds
// a run takes in each environment and, for each of its metrics, the mean
// and coefficient of variation in each (native, docker-bridge,
// docker-host). The figures are those measured on a 2-vCPU VM with
// Docker 20.10 on fuse-overlayfs by bench/replicate.sh (docs/design/006,
// "The whole study simulated": studies 2 and 3 of rep10; the coefficients
// of variation with n, not n-1, as divisor, so 4-7 % below the sample
// ones), but disk.rand's: quick runs it with phases of 0.5 s since
// 2026-11-29, and its row is the three studies of rep15 on a VM of the
// same kind (docs/design/015, "Shorter phases": the coefficients of
// variation within each study, pooled); -cv changes a metric's spread in
// the containers.
type simWorkload struct {
	name    string
	secs    [3]float64
	metrics []simMetric
}

type simMetric struct {
	name  string
	mean  [3]float64
	cvPct [3]float64
}

var simEnvs = []string{"native", "docker-bridge", "docker-host"}

var simStudy = []simWorkload{
	{"cpu.prime", [3]float64{3.28, 3.93, 3.64}, []simMetric{
		{"events_per_s", [3]float64{3621, 3669, 3617}, [3]float64{3.5, 1.2, 2.4}}}},
	{"cpu.linpack", [3]float64{2.28, 2.97, 2.63}, []simMetric{
		{"mflops", [3]float64{7100, 7117, 7201}, [3]float64{1.7, 1.6, 1.5}}}},
	{"mem.stream", [3]float64{0.47, 1.11, 0.82}, []simMetric{
		{"copy_MBps", [3]float64{59014, 57687, 58869}, [3]float64{8.1, 4.5, 8.7}},
		{"scale_MBps", [3]float64{54790, 56158, 55126}, [3]float64{9.7, 4.5, 5.8}},
		{"add_MBps", [3]float64{56761, 57453, 55966}, [3]float64{9.2, 5.5, 6.5}},
		{"triad_MBps", [3]float64{57426, 59891, 57390}, [3]float64{10.9, 6.1, 6.5}}}},
	{"mem.mbw", [3]float64{1.22, 1.88, 1.6}, []simMetric{
		{"memcpy_MiBps", [3]float64{18284, 18225, 17844}, [3]float64{12.7, 10.2, 9.1}},
		{"dumb_MiBps", [3]float64{17412, 16649, 16348}, [3]float64{4.2, 9.3, 7.9}},
		{"mcblock_MiBps", [3]float64{17876, 17860, 17786}, [3]float64{4.5, 7.5, 7.7}}}},
	{"disk.seq", [3]float64{2.39, 5.06, 5.23}, []simMetric{
		{"write_MBps", [3]float64{1313, 702, 698}, [3]float64{6.0, 5.6, 6.4}},
		{"read_MBps", [3]float64{1734, 346, 340}, [3]float64{12.5, 2.0, 3.1}},
		{"rewrite_MBps", [3]float64{1287, 654, 637}, [3]float64{8.4, 7.4, 6.4}}}},
	{"disk.rand", [3]float64{1.56, 2.43, 2.15}, []simMetric{
		{"read_iops", [3]float64{12089, 24943, 24051}, [3]float64{22.1, 10.0, 12.2}},
		{"write_iops", [3]float64{8466, 6535, 6287}, [3]float64{9.8, 12.8, 13.2}}}},
}

// studyTable simulates bench/replicate.sh whole: pairs of adaptive
// studies of the default study's 28 cells, each judged by the real rule
// (result.Decide after every round from the first look, Decisions.Focus
// choosing the next round's cells within the budget from each run cell's
// time, the answer result.Decide's where the study stopped), and prints
// how many cells a study decides and how its verdicts agree with the next
// study's, as bench/replicate.sh counts them: decided in either, the
// same, decided in one only, contradicting (different verdicts or
// intervals apart). Each study is judged alone, as a host's first (the
// script's -alone table): the spread between studies that the script's
// later studies carry is not simulated, nor are runs that move together
// (a host slow for half a minute); every run's noise is its own,
// lognormal with its cell's mean and coefficient of variation. far is the
// probability that a run is far off (all its metrics 1.4 or 1/1.4 times
// their means); cv sets a metric's coefficient of variation in both
// containers ("write_iops=6"). verbose adds the runs each run cell had
// and the cells that disagreed.
func studyTable(rng *rand.Rand, cfg simConfig, pairs int, cv, more string, verbose bool) error {
	table, err := simTable(cv, more)
	if err != nil {
		return err
	}
	fmt.Printf("\nwhole default studies (28 cells, a 2-vCPU VM's means and spreads%s), %d pairs, budget %gs after %d warm-up round(s), %g of runs far off\n\n",
		map[bool]string{true: ", " + cv + " % in the containers"}[cv != ""]+map[bool]string{true: ", " + more + " s more a run"}[more != ""], pairs, cfg.budget, cfg.warmup, cfg.far)
	var decided, either, agree, one, contra, farApart, good, rounds int
	var names []string
	cellDecided, cellOne, cellContra := map[string]int{}, map[string]int{}, map[string]int{}
	runs := map[string]int{}
	for range pairs {
		a, ra := simulateStudy(rng, cfg, table, runs)
		b, rb := simulateStudy(rng, cfg, table, runs)
		rounds += ra + rb
		pe, pa := 0, 0
		for i := range a.Cells {
			name := a.Cells[i].Name()
			if len(names) < len(a.Cells) {
				names = append(names, name)
			}
			va, vb := a.Cells[i].Verdict, b.Cells[i].Verdict
			da, db := va.Decision != stats.Undecided, vb.Decision != stats.Undecided
			for _, d := range []bool{da, db} {
				if d {
					decided++
					cellDecided[name]++
				}
			}
			if !da && !db {
				continue
			}
			pe++
			switch compare(va, vb) {
			case oneOnly:
				one++
				cellOne[name]++
			case differ:
				contra++
				cellContra[name]++
			case apart:
				contra++
				farApart++
				cellContra[name]++
			default:
				pa++
			}
		}
		either += pe
		agree += pa
		if pe == 0 || float64(pa) >= 0.9*float64(pe) {
			good++
		}
	}
	pct := func(k, of int) float64 { return 100 * float64(k) / float64(max(of, 1)) }
	fmt.Printf("%8s %8s %11s %10s %10s %14s %16s\n", "decided", "agree", "pairs>=90%", "one only", "contra", "(intervals apart)", "rounds a study")
	fmt.Printf("%8.2f %7.1f%% %10.1f%% %10.2f %10.3f %14.3f %16.1f\n", float64(decided)/float64(2*pairs), pct(agree, either), pct(good, pairs),
		float64(one)/float64(pairs), float64(contra)/float64(pairs), float64(farApart)/float64(pairs), float64(rounds)/float64(2*pairs))
	fmt.Println("\n(decided: cells a study decides, of 28; agree: the same verdict in both, of the cells decided in either;")
	fmt.Println("pairs>=90%: the pairs that meet bench/replicate.sh's goal; one only and contra: cells a pair, contra")
	fmt.Println("both verdicts apart and intervals apart; rounds a study: the measured rounds it ran)")
	if verbose {
		keys := slices.Sorted(maps.Keys(runs))
		fmt.Print("\nruns a study:")
		for _, k := range keys {
			fmt.Printf(" %s %.1f", strings.Replace(k, "|env=", " @ ", 1), float64(runs[k])/float64(2*pairs))
		}
		fmt.Println()
		for _, n := range names {
			if cellOne[n]+cellContra[n] > 0 {
				fmt.Printf("  %-42s decided in %5.1f%% of studies; in one of a pair only %5.1f%%, contradicting %4.1f%%\n", n,
					pct(cellDecided[n], 2*pairs), pct(cellOne[n], pairs), pct(cellContra[n], pairs))
			}
		}
	}
	return nil
}

// simConfig is what a simulated study takes from the flags: the margin,
// its first look, its most rounds, its budget in seconds, its warm-up
// rounds (charged to the budget, as a real study's are) and the
// probability of a far run.
type simConfig struct {
	margin      float64
	first, most int
	budget, far float64
	warmup      int
}

// simTable is simStudy with cv ("METRIC=PERCENT") applied to the metric's
// spread in both containers and more ("WORKLOAD=SECONDS") added to the
// workload's run time in every environment; simStudy itself is not
// changed.
func simTable(cv, more string) ([]simWorkload, error) {
	table := make([]simWorkload, len(simStudy))
	for i, w := range simStudy {
		table[i] = w
		table[i].metrics = slices.Clone(w.metrics)
	}
	if more != "" {
		name, secs, ok := strings.Cut(more, "=")
		v, err := strconv.ParseFloat(secs, 64)
		if !ok || err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("-secs %q: want WORKLOAD=SECONDS, as disk.rand=4", more)
		}
		i := slices.IndexFunc(table, func(w simWorkload) bool { return w.name == name })
		if i < 0 {
			var names []string
			for _, w := range table {
				names = append(names, w.name)
			}
			return nil, fmt.Errorf("-secs %q: no workload %s; the workloads are %s", more, name, strings.Join(names, ", "))
		}
		for e := range table[i].secs {
			if table[i].secs[e] += v; table[i].secs[e] <= 0 {
				return nil, fmt.Errorf("-secs %q: a run of %s would take %.2f s in %s", more, name, table[i].secs[e], simEnvs[e])
			}
		}
	}
	if cv == "" {
		return table, nil
	}
	name, pct, ok := strings.Cut(cv, "=")
	v, err := strconv.ParseFloat(pct, 64)
	if !ok || err != nil || !(v >= 0) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("-cv %q: want METRIC=PERCENT, as write_iops=6", cv)
	}
	var names []string
	found := false
	for _, w := range table {
		for i := range w.metrics {
			names = append(names, w.metrics[i].name)
			if w.metrics[i].name == name {
				w.metrics[i].cvPct[1], w.metrics[i].cvPct[2], found = v, v, true
			}
		}
	}
	if !found {
		return nil, fmt.Errorf("-cv %q: no metric %s; the metrics are %s", cv, name, strings.Join(names, ", "))
	}
	return table, nil
}

// simulateStudy runs one simulated default study of table: its warm-up
// rounds, charged to the budget, then cfg.first whole rounds, then the
// cells Focus keeps, until every cell is decided, the budget (each run
// cell's seconds a run) or cfg.most rounds end it, or no cell is within
// reach; it adds the runs of each run cell to counted and returns the
// study's decisions and its measured rounds.
func simulateStudy(rng *rand.Rand, cfg simConfig, table []simWorkload, counted map[string]int) (result.Decisions, int) {
	first, most := cfg.first, cfg.most
	var runs []store.Run
	var samples []store.Sample
	secs := map[string]float64{}
	all := map[string]bool{}
	var wls []string
	for _, w := range table {
		wls = append(wls, w.name)
		for e, env := range simEnvs {
			key := w.name + "|env=" + env
			secs[key], all[key] = w.secs[e], true
		}
	}
	lay := result.Layout{Baseline: "native", Envs: simEnvs, Workloads: wls, MarginPct: cfg.margin, FirstRounds: first}
	spent, rounds, cells := 0.0, 0, all
	for k := range all {
		spent += float64(cfg.warmup) * secs[k] // the warm-up rounds, whose runs are not judged
	}
	for rounds < most {
		for _, w := range table {
			for e, env := range simEnvs {
				key := w.name + "|env=" + env
				if !cells[key] {
					continue
				}
				id := int64(len(runs) + 1)
				runs = append(runs, store.Run{ID: id, Seq: int(id), CellKey: key, Workload: w.name, Env: env,
					Levels: map[string]string{"env": env}, Rep: rounds, Status: store.RunOK})
				far := 1.0
				if rng.Float64() < cfg.far {
					far = []float64{1.4, 1 / 1.4}[rng.IntN(2)]
				}
				for _, m := range w.metrics {
					// lognormal with the cell's mean (not median) and CV
					sd := math.Sqrt(math.Log1p(m.cvPct[e] * m.cvPct[e] / 1e4))
					v := far * m.mean[e] * math.Exp(sd*rng.NormFloat64()-sd*sd/2)
					samples = append(samples, store.Sample{RunID: id, Metric: m.name, Value: v})
				}
				spent += secs[key]
				counted[key]++
			}
		}
		rounds++
		if rounds < first {
			continue
		}
		d := result.Decide(lay, runs, samples, false)
		if d.Done {
			break
		}
		fit := func(keys map[string]bool) int {
			per := 0.0
			for k := range keys {
				per += secs[k]
			}
			return max(0, min(most-rounds, int((cfg.budget-spent)/per)))
		}
		keep, _ := d.Focus(fit, most-rounds)
		if keep == nil {
			break
		}
		cells = keep
	}
	d := result.Decide(lay, runs, samples, false)
	if len(d.Cells) != 28 {
		panic(fmt.Sprintf("%d cells judged, want 28", len(d.Cells)))
	}
	return d, rounds
}
