package study

import (
	"strings"
	"testing"
)

func TestPaperAndAdaptiveBlocksAreValidated(t *testing.T) {
	tests := []struct {
		name, extra, want string // want: "" for valid
	}{
		{"paper", "paper:\n  id: krylovskiy2015\n  repetitions: 10\n", ""},
		{"paper without id", "paper: {repetitions: 20}\n", ""},
		{"paper without count", "paper: {id: morabito2017}\n", "a.yaml:4:8: paper repetitions must be the paper's repetition count, 1 to 1000, not 0"},
		{"bad id", "paper: {id: Morabito 2017, repetitions: 20}\n", "paper id \"Morabito 2017\": write it in lower case"},
		{"unknown field", "paper: {id: x, reps: 20}\n", "unknown field reps"},
		{"deviation", "paper: {repetitions: 20, deviations: [{param: repetitions, reason: shorter}, {workload: test.a, param: n, reason: smaller}]}\n", ""},
		{"deviation without reason", "paper: {repetitions: 20, deviations: [{workload: test.a, param: n}]}\n", "paper deviation test.a n: say why it differs from the paper"},
		{"deviation without param", "paper: {repetitions: 20, deviations: [{reason: x}]}\n", "paper deviation: name the param"},
		{"deviation twice", "paper: {repetitions: 20, deviations: [{param: repetitions, reason: x}, {param: repetitions, reason: y}]}\n", "paper deviation repetitions is stated twice"},
		{"deviation of another workload", "paper: {repetitions: 20, deviations: [{workload: cpu.prime, param: n, reason: x}]}\n", "names workload \"cpu.prime\", which this study does not run"},
		{"adaptive", "adaptive: {precision_pct: 2, max_repetitions: 30}\n", ""},
		{"adaptive precision", "adaptive: {precision_pct: 0, max_repetitions: 30}\n", "precision_pct must be above 0"},
		{"adaptive maximum", "adaptive: {precision_pct: 2, max_repetitions: 1}\n", "max_repetitions must be 2 to 1000, not 1"},
		{"adaptive without a second environment", "envs: [native]\nadaptive: {precision_pct: 2, max_repetitions: 30}\n", "adaptive repetitions need an environment besides the baseline"},
		{"adaptive below start", "repetitions: 9\nadaptive: {precision_pct: 2, max_repetitions: 4}\n", "repetitions (9, the rounds an adaptive study starts with) exceed adaptive max_repetitions (4)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			envs := "envs: [native, docker-host]\n"
			if strings.Contains(tt.extra, "envs:") {
				envs = ""
			}
			s, err := ParseSpec("a.yaml", []byte("name: a\n"+envs+"workloads: [test.a]\n"+tt.extra))
			if err == nil {
				err = s.Normalize(testEnvs).Validate(testEnvs)
			}
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("valid spec refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestUsePaperRepetitions(t *testing.T) {
	s, _ := ParseSpec("a.yaml", []byte("name: a\nrepetitions: 3\npaper: {id: morabito2017, repetitions: 20}\nenvs: [native]\nworkloads: [test.a]\n"))
	if err := s.UsePaperRepetitions(); err != nil || s.Repetitions != 20 {
		t.Fatalf("repetitions %d, %v; want the paper's 20", s.Repetitions, err)
	}
	bare, _ := ParseSpec("b.yaml", []byte("name: b\nenvs: [native]\nworkloads: [test.a]\n"))
	if err := bare.UsePaperRepetitions(); err == nil || !strings.Contains(err.Error(), "names no paper repetition count") {
		t.Fatalf("a spec without paper: %v", err)
	}
}

// TestEveryPresetStatesThePapersRepetitions: issue 14 item 4, every preset
// says how often its paper repeated.
func TestEveryPresetStatesThePapersRepetitions(t *testing.T) {
	want := map[string]int{"krylovskiy2015": 10, "morabito2017": 20, "masek2016": 5, "kalaska2023": 7, "marques": 5}
	for _, name := range Presets() {
		s, err := Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Paper == nil {
			t.Errorf("%s: no paper block", name)
			continue
		}
		if n, ok := want[s.Paper.ID]; !ok || n != s.Paper.Repetitions {
			t.Errorf("%s: paper %s with %d repetitions; the seeds: %v", name, s.Paper.ID, s.Paper.Repetitions, want)
		}
	}
}

func TestNextRoundContinuesThePlan(t *testing.T) {
	s, _ := ParseSpec("t.yaml", []byte(twoByThree))
	if err := s.Normalize(testEnvs).Validate(testEnvs); err != nil {
		t.Fatal(err)
	}
	s.Repetitions = 5
	full, _ := s.Plan(42)
	s.Repetitions = 2
	short, _ := s.Plan(42)
	for rep := 2; rep < 5; rep++ {
		next, err := s.NextRound(42, rep)
		if err != nil {
			t.Fatal(err)
		}
		short = append(short, next...)
	}
	if len(short) != len(full) {
		t.Fatalf("%d runs, want %d", len(short), len(full))
	}
	for i := range full {
		if short[i].Seq != full[i].Seq || short[i].CellKey != full[i].CellKey || short[i].Rep != full[i].Rep {
			t.Fatalf("run %d: %+v, a plan of 5 rounds has %+v", i, short[i], full[i])
		}
	}
}
