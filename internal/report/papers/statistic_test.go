package papers

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
)

// TestComparePaperUsesThePapersStatistic: Kałaska's tables print, per
// quantity, the median over the runs left after dropping the best and the
// worst by median processing time; --compare-paper computes that from the
// same ranking (issue 29 item 6: it compared the mean of every run), says
// so on the row, and keeps the mean beside it.
func TestComparePaperUsesThePapersStatistic(t *testing.T) {
	// Seven runs of one cell; run 3 is the slowest by its median and run 5
	// the fastest, while their first quartiles rank otherwise.
	medians := []float64{20000, 21000, 19500, 40000, 20500, 12000, 20800}
	q1s := []float64{9000, 9500, 9100, 1000, 9400, 30000, 9300}
	st := store.Study{ID: 5, Name: "seed003-ingest", Status: store.StudyFinished, HostJSON: epycHost, SpecYAML: "name: x\n"}
	var runs []store.Run
	var samples []store.Sample
	for rep := range medians {
		for _, env := range []string{"native", "docker-bridge"} {
			id := int64(len(runs) + 1)
			levels := map[string]string{"env": env, "nodes": "2", "affinity": "dedicated", "devices": "870"}
			runs = append(runs, store.Run{ID: id, Seq: len(runs), Rep: rep, Workload: "iot.ingest", Env: env, Levels: levels,
				CellKey: "iot.ingest|affinity=dedicated|devices=870|env=" + env + "|nodes=2", Params: map[string]any{}, Status: store.RunOK})
			samples = append(samples,
				store.Sample{RunID: id, Metric: "node_median_us", Value: medians[rep], Unit: "µs"},
				store.Sample{RunID: id, Metric: "node_q1_us", Value: q1s[rep], Unit: "µs"})
		}
	}
	r := report.Build(st, report.Layout{Baseline: "native", Envs: []string{"native", "docker-bridge"}, Workloads: []string{"iot.ingest"}}, runs, samples)
	cmps, err := Compare(r, "kalaska2023")
	if err != nil {
		t.Fatal(err)
	}
	med, _ := findPaperRow(cmps, "Table 1", "Median, individual, ms", "870.00", "2x Xeon E5-2680 v2")
	q1, _ := findPaperRow(cmps, "Table 1", "First quartile, individual, ms", "870.00", "2x Xeon E5-2680 v2")
	if med == nil || q1 == nil || med.OursStat == nil || q1.OursStat == nil {
		t.Fatalf("rows not compared: %+v %+v", med, q1)
	}
	// By hand: drop runs 3 (40000) and 5 (12000); medians left 20000 21000
	// 19500 20500 20800 -> 20500; their q1s 9000 9500 9100 9400 9300 -> 9300.
	if *med.OursStat != 20500 {
		t.Errorf("median column: %v, want 20500 (the median of the 5 runs left)", *med.OursStat)
	}
	if *q1.OursStat != 9300 {
		t.Errorf("first quartile column: %v, want 9300 (runs dropped by their median, not their q1)", *q1.OursStat)
	}
	if want, _ := stats.MedianDroppingExtremes(q1s, medians); *q1.OursStat != want {
		t.Errorf("q1 %v, stats says %v", *q1.OursStat, want)
	}
	if mean := stats.Mean(medians); med.OursMean == nil || math.Abs(*med.OursMean-mean) > 1e-6 {
		t.Errorf("the mean beside it: %v, want %v", med.OursMean, mean)
	}
	for _, row := range []*report.PaperRow{med, q1} {
		if !strings.Contains(row.Statistic, "median of 5 of 7 runs, the best and worst by node_median_us dropped") {
			t.Errorf("%s: statistic %q does not say what is compared", row.Column, row.Statistic)
		}
	}
	// The statistic's quote is the seed's own sentence.
	b, err := os.ReadFile(filepath.Join("testdata", "seeds", "kalaska2023.txt"))
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := All()
	for _, p := range ps {
		if p.Statistic != nil && !strings.Contains(string(b), p.Statistic.Quote) && p.ID == "kalaska2023" {
			t.Errorf("%s: the statistic's quote is not in the seed excerpt: %q", p.ID, p.Statistic.Quote)
		}
	}
}
