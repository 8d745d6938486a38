package gate

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
	_ "github.com/boxtax/boxtax/internal/workload/all" // the real workloads, whose names and metrics rules resolve against
)

var gateEnvs = []string{"native", "docker-bridge", "docker-host"}

// catalog is what the rules of these tests may name: gateEnvs and every
// registered workload.
var catalog = Catalog{Envs: gateEnvs, Workloads: workload.All()}

func TestParseRule(t *testing.T) {
	tests := []struct {
		text                  string
		env, workload, metric string
		limit                 float64
	}{
		{"docker-bridge:cpu.prime.events_per_s=5%", "docker-bridge", "cpu.prime", "events_per_s", 5},
		{"*:net.rr.rtt_p50_us=2.5%", "*", "net.rr", "rtt_p50_us", 2.5},
		{"docker-host:mqtt.pub=10%", "docker-host", "mqtt.pub", "", 10},
		{"*:*=10%", "*", "*", "", 10},
		{" docker-bridge : mem.stream.triad_MBps = 0% ", "docker-bridge", "mem.stream", "triad_MBps", 0},
		{"*:rt.periodic-io.latency_p99_us=1%", "*", "rt.periodic-io", "latency_p99_us", 1},
		{"*:rt.periodic.latency_p99_us=1%", "*", "rt.periodic", "latency_p99_us", 1},
		// Issue 25 item 16: an environment with options, named canonically.
		{"docker-bridge+storage=bind:cpu.prime=5%", "docker-bridge+storage=bind", "cpu.prime", "", 5},
		{"docker-bridge+storage=bind+seccomp=unconfined:cpu.prime.events_per_s=5%", "docker-bridge+seccomp=unconfined+storage=bind", "cpu.prime", "events_per_s", 5},
		{"docker-bridge+network=bridge+cpus=1.50:*=5%", "docker-bridge+cpus=1.5", "*", "", 5},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			r, err := catalog.ParseRule(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if r.Env != tt.env || r.Workload != tt.workload || r.Metric != tt.metric || r.LimitPct != tt.limit || r.Text != tt.text {
				t.Errorf("got %+v", r)
			}
		})
	}
}

// TestParseRulesKeepsCPULists: a comma in an environment's CPU list
// does not split the rule (issue 25 item 16).
func TestParseRulesKeepsCPULists(t *testing.T) {
	rules, err := catalog.ParseRules([]string{"docker-bridge+cpuset=0,1:cpu.prime=5%,*:net.rr=10%"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 2 || rules[0].Env != "docker-bridge+cpuset=0-1" || rules[0].Workload != "cpu.prime" || rules[1].Workload != "net.rr" {
		t.Errorf("rules %+v", rules)
	}
}

func TestParseRuleRefusesBadRules(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"docker-bridge:cpu.prime", []string{"no limit", "ENV:WORKLOAD[.METRIC]=LIMIT%"}},
		{"cpu.prime=5%", []string{"no environment", "ENV:WORKLOAD"}},
		{"docker-bridge:cpu.prime=5", []string{`limit "5" is not a percentage`, "=5%"}},
		{"docker-bridge:cpu.prime=-1%", []string{`"-1%" is not a percentage of 0 or more`}},
		{"docker-bridge:cpu.prime=NaN%", []string{"not a percentage of 0 or more"}},
		{"docker-bridge:cpu.prime=five%", []string{"not a percentage"}},
		{"podmn:cpu.prime=5%", []string{`unknown environment "podmn"`, "valid environments: *, native, docker-bridge, docker-host"}},
		{":cpu.prime=5%", []string{"no environment before ':'", "native, docker-bridge"}},
		{"*:=5%", []string{"no workload", "cpu.prime"}},
		{"*:cpu.primes=5%", []string{`unknown workload "cpu.primes"`, "valid workloads: *, ", "cpu.linpack, cpu.prime, ctr.startup"}},
		{"*:cpu.prime.events=5%", []string{`workload cpu.prime has no metric "events"`, "its metrics: events_per_s, event_time_ms, total_time_s"}},
		{"*:*.events_per_s=5%", []string{"a metric needs its workload"}},
		{"*:cpu.prime=5%\x1b[31m", []string{"?[31m"}},
		{"docker-bridge+storage=disk:cpu.prime=5%", []string{`option storage: "disk" is not one of own, bind, volume, tmpfs`}},
		{"docker-bridge+storage=bind:cpu.prime", []string{"no limit"}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			_, err := catalog.ParseRule(tt.text)
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not say %q: %v", w, err)
				}
			}
			if strings.Contains(err.Error(), "\x1b") {
				t.Errorf("error carries an escape: %q", err)
			}
		})
	}
}

func TestParseRulesSplitsCommas(t *testing.T) {
	rules, err := catalog.ParseRules([]string{"docker-bridge:cpu.prime=5%, docker-host:cpu.prime=3%", "*:*=10%"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rules {
		got = append(got, r.Text)
	}
	if strings.Join(got, "|") != "docker-bridge:cpu.prime=5%|docker-host:cpu.prime=3%|*:*=10%" {
		t.Errorf("got %q", got)
	}
	if _, err := catalog.ParseRules([]string{"*:*=10%,oops"}); err == nil || !strings.Contains(err.Error(), `"oops"`) {
		t.Errorf("a bad rule after a comma: %v", err)
	}
}

func TestScopeCheck(t *testing.T) {
	scope := Scope{Baseline: "native", Envs: []string{"native", "docker-bridge"}, Workloads: []string{"cpu.prime", "mem.stream"}}
	tests := []struct {
		text string
		want string // empty: accepted
	}{
		{"docker-bridge:cpu.prime=5%", ""},
		{"*:*=5%", ""},
		{"docker-host:cpu.prime=5%", "the study has no environment docker-host; its environments besides the baseline native: docker-bridge"},
		{"native:cpu.prime=5%", "native is the study's baseline"},
		{"*:net.rr=5%", "the study has no workload net.rr; its workloads: cpu.prime, mem.stream"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			r, err := catalog.ParseRule(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			err = scope.Check([]Rule{r})
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
	alone := Scope{Baseline: "native", Envs: []string{"native"}, Workloads: []string{"cpu.prime"}}
	r, _ := catalog.ParseRule("*:*=5%")
	if err := alone.Check([]Rule{r}); err == nil || !strings.Contains(err.Error(), "no environment besides its baseline native") {
		t.Errorf("a study of the baseline alone: %v", err)
	}
}

func pf(v float64) *float64 { return &v }

// gateCellOf is a non-baseline cell with an overhead and its interval.
func gateCellOf(env, wl, metric string, higherIsBetter bool, pct, lo, hi float64, significant bool) report.Cell {
	return report.Cell{Env: env, Workload: wl, Metric: metric, Levels: map[string]string{"env": env}, HigherIsBetter: higherIsBetter,
		Baseline: "native", OverheadPct: pf(pct), OverheadCI95: []*float64{pf(lo), pf(hi)}, Significant: significant, Group: wl}
}

func gateOf(t *testing.T, r *report.Report, texts ...string) Result {
	t.Helper()
	rules, err := catalog.ParseRules(texts)
	if err != nil {
		t.Fatal(err)
	}
	return catalog.Evaluate(r, rules)
}

func TestGateCellVerdicts(t *testing.T) {
	tests := []struct {
		name   string
		cell   report.Cell
		rule   string
		status string
		cost   float64
		costCI [2]float64
	}{
		// Throughput 8 % lower in the container: cost +8 %.
		{"throughput loss breaches", gateCellOf("docker-bridge", "cpu.prime", "events_per_s", true, -8, -9, -7, true),
			"docker-bridge:cpu.prime.events_per_s=5%", Fail, 8, [2]float64{7, 9}},
		{"throughput loss within the limit", gateCellOf("docker-bridge", "cpu.prime", "events_per_s", true, -4, -5, -3, true),
			"docker-bridge:cpu.prime.events_per_s=5%", Pass, 4, [2]float64{3, 5}},
		// Throughput 8 % higher: a gain, cost -8 %.
		{"throughput gain passes", gateCellOf("docker-bridge", "cpu.prime", "events_per_s", true, 8, 7, 9, true),
			"docker-bridge:cpu.prime.events_per_s=5%", Pass, -8, [2]float64{-9, -7}},
		// Latency 8 % higher in the container: cost +8 %.
		{"latency rise breaches", gateCellOf("docker-bridge", "net.rr", "rtt_p50_us", false, 8, 7, 9, true),
			"docker-bridge:net.rr.rtt_p50_us=5%", Fail, 8, [2]float64{7, 9}},
		{"latency fall passes", gateCellOf("docker-bridge", "net.rr", "rtt_p50_us", false, -8, -9, -7, true),
			"docker-bridge:net.rr.rtt_p50_us=5%", Pass, -8, [2]float64{-9, -7}},
		// 30 % lower, but the interval holds 0: not shown over the limit,
		// nor within it.
		{"large but not significant is undecided", gateCellOf("docker-bridge", "cpu.prime", "events_per_s", true, -30, -70, 10, false),
			"docker-bridge:cpu.prime.events_per_s=5%", Undecided, 30, [2]float64{-10, 70}},
		{"an interval across the limit is undecided", gateCellOf("docker-bridge", "cpu.prime", "events_per_s", true, -5, -6, -4, true),
			"docker-bridge:cpu.prime.events_per_s=5%", Undecided, 5, [2]float64{4, 6}},
		// Issue 28: +10.1 % with interval [-34, +39] passed *:*=10 %
		// while 3 more rounds might have failed it.
		{"the issue's +10.1 [-34, +39] is undecided", gateCellOf("docker-bridge", "net.rr", "rtt_p50_us", false, 10.1, -34, 39, false),
			"*:*=10%", Undecided, 10.1, [2]float64{-34, 39}},
		// A cost beyond noise whose interval reaches below the limit: not
		// shown over it (the former rule failed it on the estimate).
		{"significant, estimate above, interval across: undecided", gateCellOf("docker-bridge", "net.rr", "rtt_p50_us", false, 12, 2, 22, true),
			"*:*=10%", Undecided, 12, [2]float64{2, 22}},
		{"interval ending at the limit passes", gateCellOf("docker-bridge", "net.rr", "rtt_p50_us", false, 8, 6, 10, true),
			"*:*=10%", Pass, 8, [2]float64{6, 10}},
		{"interval starting at the limit is not over it", gateCellOf("docker-bridge", "net.rr", "rtt_p50_us", false, 12, 10, 14, true),
			"*:*=10%", Undecided, 12, [2]float64{10, 14}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := gateOf(t, report.OfCells(nil, []report.Cell{tt.cell}), tt.rule)
			if len(g.Rules) != 1 || len(g.Rules[0].Cells) != 1 {
				t.Fatalf("got %+v", g)
			}
			c := g.Rules[0].Cells[0]
			if c.Status != tt.status {
				t.Errorf("status %s, want %s", c.Status, tt.status)
			}
			if c.CostPct == nil || *c.CostPct != tt.cost || *c.CostCI95[0] != tt.costCI[0] || *c.CostCI95[1] != tt.costCI[1] {
				t.Errorf("cost %v %v, want %v %v", c.CostPct, c.CostCI95, tt.cost, tt.costCI)
			}
			// Undecided cells are listed and pass unless asked otherwise.
			rule := map[string]string{Undecided: Pass}[tt.status]
			if rule == "" {
				rule = tt.status
			}
			if g.Passed != (rule == Pass) || g.Rules[0].Status != rule {
				t.Errorf("gate passed=%v rule %s, cell %s", g.Passed, g.Rules[0].Status, tt.status)
			}
			strict := catalog.Judge(report.OfCells(nil, []report.Cell{tt.cell}), g.ruleList(), true)
			if want := tt.status == Pass; strict.Passed != want || !strict.FailUndecided {
				t.Errorf("with failUndecided: passed=%v, want %v", strict.Passed, want)
			}
		})
	}
}

// studyCells: cpu.prime in docker-bridge 8 % slower, in docker-host 1 %
// slower, both significant; mem.stream triad in docker-bridge 3 % slower;
// net.tcp at two wire levels in docker-bridge, 12 % and 2 % slower.
func studyCells() *report.Report {
	base := func(wl, metric string, higher bool, levels map[string]string, group string) report.Cell {
		return report.Cell{Env: "native", Workload: wl, Metric: metric, HigherIsBetter: higher, Levels: levels, IsBaseline: true,
			Baseline: "native", OverheadCI95: []*float64{nil, nil}, Group: group}
	}
	wire := func(c report.Cell, w string) report.Cell {
		c.Levels = map[string]string{"env": c.Env, "wire": w}
		c.Group = "net.tcp|wire=" + w
		return c
	}
	secondary := gateCellOf("docker-bridge", "cpu.prime", "event_time_ms", false, 50, 40, 60, true)
	secondary.Secondary = true
	return report.OfCells([]string{"native", "docker-bridge", "docker-host"}, []report.Cell{
		base("cpu.prime", "events_per_s", true, map[string]string{"env": "native"}, "cpu.prime"),
		gateCellOf("docker-bridge", "cpu.prime", "events_per_s", true, -8, -9, -7, true),
		gateCellOf("docker-host", "cpu.prime", "events_per_s", true, -1, -1.5, -0.5, true),
		secondary,
		base("mem.stream", "triad_MBps", true, map[string]string{"env": "native"}, "mem.stream"),
		gateCellOf("docker-bridge", "mem.stream", "triad_MBps", true, -3, -4, -2, true),
		base("net.tcp", "mbit_per_s", true, map[string]string{"env": "native", "wire": "host"}, "net.tcp|wire=host"),
		wire(gateCellOf("docker-bridge", "net.tcp", "mbit_per_s", true, -12, -14, -10, true), "host"),
		base("net.tcp", "mbit_per_s", true, map[string]string{"env": "native", "wire": "netns"}, "net.tcp|wire=netns"),
		wire(gateCellOf("docker-bridge", "net.tcp", "mbit_per_s", true, -2, -3, -1, true), "netns"),
	})
}

func TestGateWildcardsAndLevels(t *testing.T) {
	tests := []struct {
		rule            string
		status          string
		checked, failed int
		undecided       int
		unchecked       int
	}{
		// Every primary metric of every env: the secondary event_time_ms
		// (+50 %) is out; docker-host has no mem.stream and net.tcp cells
		// (3 unchecked), the other 5 are checked.
		{"*:*=20%", Pass, 5, 0, 0, 3},
		{"*:*=9%", Fail, 5, 1, 0, 3},         // net.tcp wire=host: [10, 14] lies above 9
		{"*:*=10%", Pass, 5, 0, 1, 3},        // [10, 14] reaches past 10 but is not above it: undecided
		{"*:cpu.prime=5%", Fail, 2, 1, 0, 0}, // docker-bridge breaches, docker-host passes
		{"docker-host:cpu.prime=5%", Pass, 1, 0, 0, 0},
		{"docker-bridge:net.tcp=5%", Fail, 2, 1, 0, 0},
		{"docker-bridge:cpu.prime.event_time_ms=39%", Fail, 1, 1, 0, 0}, // a secondary metric when named
		{"docker-host:mem.stream=5%", Unchecked, 0, 0, 0, 1},            // no data: nothing checked fails
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			g := gateOf(t, studyCells(), tt.rule)
			r := g.Rules[0]
			if r.Status != tt.status || r.Checked != tt.checked || r.Failed != tt.failed || r.Undecided != tt.undecided || r.Unchecked != tt.unchecked {
				var b bytes.Buffer
				Write(&b, g)
				t.Errorf("status %s checked %d failed %d undecided %d unchecked %d, want %s %d %d %d %d\n%s", r.Status, r.Checked, r.Failed, r.Undecided, r.Unchecked,
					tt.status, tt.checked, tt.failed, tt.undecided, tt.unchecked, b.String())
			}
			if g.Passed != (tt.status == Pass) {
				t.Errorf("passed %v", g.Passed)
			}
		})
	}
}

func TestUncheckedCells(t *testing.T) {
	noInterval := gateCellOf("docker-bridge", "cpu.prime", "events_per_s", true, -30, 0, 0, false)
	noInterval.OverheadCI95 = []*float64{nil, nil}
	noInterval.OverheadNote = "fewer than 2 values in the baseline: no spread to build an interval from"
	noBaseline := gateCellOf("docker-host", "cpu.prime", "events_per_s", true, 0, 0, 0, false)
	noBaseline.OverheadPct, noBaseline.OverheadCI95, noBaseline.OverheadNote = nil, []*float64{nil, nil}, "no baseline data"
	ok := gateCellOf("docker-bridge", "mem.stream", "triad_MBps", true, -1, -2, 0.5, false)

	g := gateOf(t, report.OfCells(nil, []report.Cell{noInterval, noBaseline}), "*:cpu.prime=5%")
	r := g.Rules[0]
	if g.Passed || r.Status != Unchecked || r.Unchecked != 2 || r.Checked != 0 {
		t.Fatalf("nothing checkable must fail: %+v", r)
	}
	if c := r.Cells[0]; c.Status != Unchecked || c.CostPct == nil || *c.CostPct != 30 || !strings.Contains(c.Note, "fewer than 2") {
		t.Errorf("cell without an interval: %+v", c)
	}
	if c := r.Cells[1]; c.Status != Unchecked || c.CostPct != nil || c.Note != "no baseline data" {
		t.Errorf("cell without a baseline: %+v", c)
	}
	// One checkable cell beside the unchecked ones: the rule is judged on it.
	g = gateOf(t, report.OfCells(nil, []report.Cell{noInterval, ok}), "*:*=5%")
	if !g.Passed || g.Rules[0].Checked != 1 || g.Rules[0].Unchecked != 1 {
		t.Errorf("one checked cell that passes: %+v", g.Rules[0])
	}
}

func TestGateOutput(t *testing.T) {
	g := gateOf(t, studyCells(), "docker-bridge:net.tcp=5%", "docker-host:mem.stream=5%")
	var b bytes.Buffer
	if err := Write(&b, g); err != nil {
		t.Fatal(err)
	}
	testenv.Says(t, "the output", b.String(),
		"gate: FAIL (2 of 2 rules)",
		"docker-bridge:net.tcp=5%: FAIL (2 checked, 1 failed, 0 undecided, 0 unchecked)",
		"  ENV            WORKLOAD  LEVELS      METRIC      COST    95% CI          LIMIT  RESULT",
		"  docker-bridge  net.tcp   wire=host   mbit_per_s  +12.0%  [+10.0, +14.0]  5%     FAIL",
		"  docker-bridge  net.tcp   wire=netns  mbit_per_s  +2.0%   [+1.0, +3.0]    5%     PASS",
		"docker-host:mem.stream=5%: UNCHECKED (0 checked, 0 failed, 0 undecided, 1 unchecked)",
		"  docker-host  mem.stream  -       triad_MBps  -     -       5%     UNCHECKED: no data: no successful run")
	js, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	testenv.Says(t, "JSON", string(js), `"passed":false`, `"rule":"docker-bridge:net.tcp=5%"`, `"status":"fail"`, `"cost_pct":12`, `"cost_ci95":[10,14]`, `"limit_pct":5`, `"levels":{"env":"docker-bridge","wire":"host"}`)
}

// ruleList is the rules a result judged, to judge them again.
func (g Result) ruleList() []Rule {
	var out []Rule
	for _, r := range g.Rules {
		out = append(out, r.Rule)
	}
	return out
}

// An undecided cell is listed and, with failUndecided, fails its rule:
// the gate then passes only cells shown to be within their limit.
func TestGateListsAndFailsUndecidedCells(t *testing.T) {
	cells := report.OfCells(nil, []report.Cell{
		gateCellOf("docker-bridge", "net.rr", "rtt_p50_us", false, 10.1, -34, 39, false),
		gateCellOf("docker-host", "net.rr", "rtt_p50_us", false, 1, 0.5, 1.5, true),
	})
	rules, err := catalog.ParseRules([]string{"*:*=10%"})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	lenient := catalog.Judge(cells, rules, false)
	if err := Write(&b, lenient); err != nil {
		t.Fatal(err)
	}
	if !lenient.Passed || lenient.Undecided() != 1 || !strings.Contains(b.String(), "1 cell(s) UNDECIDED: not shown to be within their limit") ||
		!strings.Contains(b.String(), "+10.1%  [-34.0, +39.0]  10%    UNDECIDED") {
		t.Errorf("lenient gate: passed %v\n%s", lenient.Passed, b.String())
	}
	strict := catalog.Judge(cells, rules, true)
	b.Reset()
	if err := Write(&b, strict); err != nil {
		t.Fatal(err)
	}
	if strict.Passed || strict.Rules[0].Status != Fail || strict.Rules[0].Failed != 0 || strict.Rules[0].Undecided != 1 || strings.Contains(b.String(), "cell(s) UNDECIDED") {
		t.Errorf("strict gate: %+v\n%s", strict.Rules[0], b.String())
	}
	js, _ := json.Marshal(strict)
	testenv.Says(t, "JSON", string(js), `"fail_undecided":true`, `"undecided":1`, `"status":"undecided"`)
}
