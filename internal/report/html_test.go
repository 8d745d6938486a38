package report_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/page"
	"github.com/boxtax/boxtax/internal/store"
)

const hostile = `<script>alert(1)</script>`

// hostileReport is a study whose every user- or host-supplied string tries
// to break out of its context.
func hostileReport() *report.Report {
	st := store.Study{ID: 9, Name: hostile, Status: store.StudyFinished, Seed: 1,
		CreatedAt: time.Date(2026, 11, 21, 5, 0, 0, 0, time.UTC),
		HostJSON:  `{"hostname":"<img src=x onerror=alert(2)>","cpus":2,"cpu_model":"$\\evil{} & # ^ _ ~ % |","kernel_release":"</pre><script>alert(3)</script>","docker":{"server_version":"<b>","storage_driver":"'\"x"}}`,
		SpecYAML:  "name: \"</pre><script>alert(4)</script>\"\n"}
	runs := []store.Run{
		{ID: 1, Seq: 0, CellKey: "test.cpu|mode=<i>x</i>|env=native", Workload: "test.cpu", Env: "native", Levels: map[string]string{"env": "native", "mode": "<i>x</i>"}, Status: store.RunOK,
			Notes: map[string]string{"fs_warning": "<script>alert(5)</script>", "sizing": "<svg onload=alert(6)>"}},
		{ID: 2, Seq: 1, CellKey: "test.cpu|mode=<i>x</i>|env=native", Workload: "test.cpu", Env: "native", Levels: map[string]string{"env": "native", "mode": "<i>x</i>"}, Status: store.RunOK},
		{ID: 3, Seq: 2, CellKey: "test.cpu|mode=<i>x</i>|env=docker-bridge", Workload: "test.cpu", Env: "docker-bridge", Levels: map[string]string{"env": "docker-bridge", "mode": "<i>x</i>"}, Status: store.RunOK},
		{ID: 4, Seq: 3, CellKey: "test.cpu|mode=<i>x</i>|env=docker-bridge", Workload: "test.cpu", Env: "docker-bridge", Levels: map[string]string{"env": "docker-bridge", "mode": "<i>x</i>"}, Status: store.RunOK},
		{ID: 5, Seq: 4, CellKey: "test.cpu|mode=<i>x</i>|env=docker-bridge", Workload: "test.cpu", Env: "docker-bridge", Levels: map[string]string{"env": "docker-bridge", "mode": "<i>x</i>"}, Status: store.RunFailed, Reason: "<script>alert(7)</script>"},
	}
	var samples []store.Sample
	for i, v := range []float64{100, 104, 90, 91} {
		samples = append(samples, store.Sample{RunID: int64(i + 1), Metric: "events_per_s", Value: v, Unit: "events/s"})
	}
	return report.Build(st, report.Layout{Baseline: "native", Envs: []string{"native", "docker-bridge"}}, runs, samples)
}

func TestUserAndHostTextIsEscapedInEveryFormat(t *testing.T) {
	for _, format := range []string{"html", "markdown", "latex"} {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := report.Write(&buf, format, hostileReport()); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if format == "latex" {
				// Comments are for the author and never typeset; check the rest.
				out = regexp.MustCompile(`(?m)^%.*$`).ReplaceAllString(out, "")
			}
			for _, raw := range []string{"<script", "<img", "<svg onload", "<b>", "<i>", "</pre><"} {
				if strings.Contains(out, raw) {
					t.Errorf("%s output holds %q unescaped", format, raw)
				}
			}
			want := map[string]string{
				"html":     "&lt;script&gt;alert(1)&lt;/script&gt;",
				"markdown": "&lt;script&gt;alert(1)&lt;/script&gt;",
				"latex":    `\textless{}script\textgreater{}alert(1)\textless{}/script\textgreater{}`,
			}[format]
			if !strings.Contains(out, want) {
				t.Errorf("%s output does not show the study name as text %q:\n%s", format, want, out)
			}
			if format == "latex" && !strings.Contains(out, `\$\textbackslash{}evil\{\} \& \# \textasciicircum{} \_ \textasciitilde{} \% \textbar{}`) {
				t.Errorf("LaTeX special characters of the CPU model not escaped:\n%s", out)
			}
		})
	}
}

func TestHTMLIsOneSelfContainedFile(t *testing.T) {
	for name, build := range report.Fixtures {
		var buf bytes.Buffer
		if err := report.Write(&buf, "html", build()); err != nil {
			t.Fatal(err)
		}
		page := strings.ReplaceAll(buf.String(), `xmlns="http://www.w3.org/2000/svg"`, "")
		for _, fetch := range []string{"<script", "<link", "<img", "<iframe", "@import", "url(", "http://", "https://", "src="} {
			if strings.Contains(page, fetch) {
				t.Errorf("%s: the page holds %q: it must load nothing", name, fetch)
			}
		}
		if !strings.Contains(page, `Content-Security-Policy" content="default-src 'none'`) {
			t.Errorf("%s: no content security policy forbidding fetches", name)
		}
	}
}

func TestEveryWorkloadGetsThePlotItsDataCallsFor(t *testing.T) {
	kinds := func(r *report.Report) map[string]int {
		out := map[string]int{}
		for _, f := range page.Figures(r) {
			out[f.Workload+"/"+f.Kind]++
		}
		return out
	}
	tests := []struct {
		name string
		r    *report.Report
		want map[string]int
	}{
		{"one factor: bars", report.Fixture(), map[string]int{"/intervals": 1, "test.cpu/bars": 1, "test.cpu/boxes": 1}},
		{"numeric factor, parts, percentiles, series", report.Factorial(), map[string]int{
			"/intervals":      1,
			"test.cpu/lines":  1, // events/s against threads
			"test.cpu/boxes":  1,
			"test.rt/stacked": 1, // wake-up + compute + sleep = time slice
			"test.rt/cdf":     2, // the percentile metrics, and the latency series
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := kinds(tt.r)
			for k, n := range tt.want {
				if got[k] != n {
					t.Errorf("%d %s figures, want %d (all: %v)", got[k], k, n, got)
				}
			}
			for k := range got {
				if _, ok := tt.want[k]; !ok {
					t.Errorf("unexpected figure %s (all: %v)", k, got)
				}
			}
		})
	}
}

func TestFigureIDsAreUniqueFileNames(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range page.Figures(report.Factorial()) {
		if seen[f.ID] || !regexp.MustCompile(`^[a-z0-9._-]+$`).MatchString(f.ID) {
			t.Errorf("figure id %q repeated or not a plain file name", f.ID)
		}
		seen[f.ID] = true
	}
}
