package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/workload"
	_ "github.com/boxtax/boxtax/internal/workload/all" // the real workloads, whose metrics the papers map to
)

func TestPapersAreTranscribedCompletely(t *testing.T) {
	ps, err := Papers()
	if err != nil {
		t.Fatal(err)
	}
	var k *Paper
	for i := range ps {
		if ps[i].ID == "krylovskiy2015" {
			k = &ps[i]
		}
	}
	if k == nil {
		t.Fatalf("krylovskiy2015 missing from %v", PaperIDs())
	}
	// Tables II-VI: columns x (device, configuration) rows.
	want := map[string]int{"II": 3 * 4, "III": 3 * 4, "IV": 2 * 6, "V": 2 * 6, "VI": 3 * 4}
	for _, tab := range k.Tables {
		n := 0
		for _, byConf := range tab.Values {
			for _, cells := range byConf {
				n += len(cells)
			}
		}
		if n != want[tab.Table] {
			t.Errorf("table %s: %d published cells, want %d", tab.Table, n, want[tab.Table])
		}
		delete(want, tab.Table)
	}
	if len(want) > 0 {
		t.Errorf("tables missing: %v", want)
	}
}

// TestPaperMappingsNameRealMetrics fails when a workload renames a metric or
// parameter a published column maps to.
func TestPaperMappingsNameRealMetrics(t *testing.T) {
	ps, err := Papers()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		for _, tab := range p.Tables {
			for _, col := range tab.Columns {
				m := col.Boxtax
				if m == nil {
					continue
				}
				wl, err := workload.Lookup(m.Workload)
				if err != nil {
					t.Errorf("%s table %s %s: %v", p.ID, tab.Table, col.Name, err)
					continue
				}
				if _, ok := wl.Info().Metric(m.Metric); !ok && !isRunMetric(m.Metric) {
					t.Errorf("%s table %s %s: %s has no metric %q", p.ID, tab.Table, col.Name, m.Workload, m.Metric)
				}
				for k := range m.Where {
					found := false
					for _, prm := range wl.Info().Params {
						found = found || prm.Name == k
					}
					if !found {
						t.Errorf("%s table %s %s: %s has no parameter %q", p.ID, tab.Table, col.Name, m.Workload, k)
					}
				}
			}
		}
	}
}

func TestParsePublishedCells(t *testing.T) {
	tests := []struct {
		in   string
		want published
		bad  bool
	}{
		{"709.22 (0.29)", published{709.22, 0.29, false}, false},
		{"-48.73% (0.38)", published{-48.73, 0.38, true}, false},
		{"+0.97% (0.0)", published{0.97, 0, true}, false},
		{"fast", published{}, true},
	}
	for _, tt := range tests {
		got, err := parsePublished(tt.in)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("parsePublished(%q) = %+v, %v", tt.in, got, err)
		}
	}
}

const epycHost = `{"hostname":"vm","cpus":2,"cpu_model":"AMD EPYC","mem_total_bytes":25232932864,"kernel_release":"6.18.44","docker":{"server_version":"20.10.24","storage_driver":"fuse-overlayfs"}}`

// quickish is a study of mem.stream, disk.seq and net.rr over TCP, with
// three runs per cell in every environment.
func quickish() *Report { return quickishOn(1, epycHost, 1, 0.97, true) }

// quickishOn is quickish on another host: speed scales every value, bridge
// the docker-bridge environment's; withNet adds net.rr.
func quickishOn(id int64, host string, speed, bridge float64, withNet bool) *Report {
	st := store.Study{ID: id, Name: "quick", Status: store.StudyFinished, Seed: 5,
		CreatedAt: time.Date(2026, 11, 21, 4, 53, 0, 0, time.UTC),
		HostJSON:  host,
		SpecYAML:  "name: quick\n"}
	envs := []string{"native", "docker-bridge", "docker-host"}
	var runs []store.Run
	var samples []store.Sample
	values := map[string]map[string]float64{
		"mem.stream": {"copy_MBps": 15916, "scale_MBps": 26880, "add_MBps": 24871, "triad_MBps": 19424},
		"disk.seq":   {"write_MBps": 589.1, "read_MBps": 1288, "rewrite_MBps": 1048},
		"net.rr":     {"transactions_per_s": 20000, "rtt_mean_us": 50, "rtt_p50_us": 45, "rtt_p99_us": 90},
	}
	factor := map[string]float64{"native": speed, "docker-bridge": speed * bridge, "docker-host": speed * 1.01}
	jitter := []float64{-0.004, 0, 0.005}
	wls := []string{"mem.stream", "disk.seq"}
	if withNet {
		wls = append(wls, "net.rr")
	}
	for rep := range 3 {
		for _, env := range envs {
			for _, wl := range wls {
				id := int64(len(runs) + 1)
				params := map[string]any{}
				if wl == "net.rr" {
					params["protocol"] = "tcp"
				}
				runs = append(runs, store.Run{ID: id, Seq: len(runs), CellKey: wl + "|env=" + env, Workload: wl, Env: env,
					Levels: map[string]string{"env": env}, Params: params, Status: store.RunOK})
				for _, m := range sortedMetricNames(values[wl]) {
					v := values[wl][m] * factor[env] * (1 + jitter[rep])
					samples = append(samples, store.Sample{RunID: id, Metric: m, Value: v, Unit: "x"})
				}
			}
		}
	}
	return Build(st, Layout{Baseline: "native", Envs: envs, Workloads: []string{"mem.stream", "disk.seq", "net.rr"}}, runs, samples)
}

func TestComparePaperFindsWhatThisStudyMeasured(t *testing.T) {
	cmps, err := ComparePaper(quickish(), "krylovskiy2015")
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]map[string]string{} // table -> "column/conf" -> status
	for _, c := range cmps {
		status[c.Table] = map[string]string{}
		for _, row := range c.Rows {
			status[c.Table][strings.Split(row.Column, ",")[0]+"/"+row.Conf] = row.Status
		}
	}
	want := map[string]map[string]string{
		"Table II":  {"MEMORY/native": PaperNoEquivalent, "FLOAT/docker": PaperNoEquivalent},
		"Table III": {"SCALE/native": PaperMeasured, "TRIAD/docker": PaperMeasured, "ADD/dockerhost": PaperMeasured},
		"Table IV":  {"BW_TCP/native": PaperNotMeasured, "BW_UDP/dockerhost": PaperNotMeasured},
		"Table V":   {"RTT_TCP/native": PaperMeasured, "RTT_TCP/docker": PaperMeasured, "RTT_UDP/native": PaperNotMeasured},
		"Table VI":  {"BCK_IN/native": PaperMeasured, "REWRITE/docker": PaperMeasured},
	}
	for table, rows := range want {
		for k, st := range rows {
			if got := status[table][k]; got != st {
				t.Errorf("%s %s: status %q, want %q", table, k, got, st)
			}
		}
	}
	if _, err := ComparePaper(quickish(), "nosuch"); err == nil || !strings.Contains(err.Error(), "krylovskiy2015") {
		t.Errorf("unknown paper: %v", err)
	}
}

func TestPaperComparisonMatchesGoldenFiles(t *testing.T) {
	for _, format := range PaperFormats() {
		if format == "html" {
			continue // the whole report; its papers section is in quick.html.golden
		}
		t.Run(format, func(t *testing.T) {
			checkGolden(t, "krylovskiy2015."+format, func(buf *bytes.Buffer) error {
				r := quickish()
				cmps, err := ComparePaper(r, "krylovskiy2015")
				if err != nil {
					return err
				}
				return WritePapers(buf, format, r, cmps)
			})
		})
	}
	t.Run("html", func(t *testing.T) {
		checkGolden(t, "quick.html", func(buf *bytes.Buffer) error { return Write(buf, "html", quickish()) })
	})
}

func isRunMetric(name string) bool { _, ok := runMetric(name); return ok }
