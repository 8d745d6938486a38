package study

import (
	"reflect"
	"testing"
)

func planOf(t *testing.T, yaml string, seed int64) ([]Cell, []string) {
	t.Helper()
	s := validSpec(t, "t.yaml", yaml)
	cells, err := s.Cells()
	if err != nil {
		t.Fatal(err)
	}
	runs, err := s.Plan(seed)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, r := range runs {
		w := ""
		if r.Warmup {
			w = "W"
		}
		keys = append(keys, w+r.CellKey)
	}
	return cells, keys
}

const twoByThree = `name: t
repetitions: 4
warmup: 1
envs: [native, docker-bridge, docker-host]
workloads: [test.a, test.b]
factors:
  - name: threads
    levels: [1, 2]
    workloads: [test.a]
`

func TestCellsExpandFactorsOnlyWhereTheyApply(t *testing.T) {
	cells, _ := planOf(t, twoByThree, 1)
	// test.a: 3 envs x 2 thread levels; test.b: 3 envs.
	if len(cells) != 9 {
		t.Fatalf("%d cells, want 9", len(cells))
	}
	if got := cells[0].Key(); got != "test.a|env=native|threads=1" {
		t.Errorf("first cell %q", got)
	}
	if cells[1].Params["threads"] != 2 {
		t.Errorf("factor level did not set the parameter: %v", cells[1].Params)
	}
	if cells[0].Params["size"] != "1MiB" {
		t.Errorf("defaults not filled in: %v", cells[0].Params)
	}
}

func TestPlanIsBlockedRandomizedAndReproducible(t *testing.T) {
	cells, keys := planOf(t, twoByThree, 42)
	n := len(cells)
	if len(keys) != n*5 {
		t.Fatalf("%d runs, want %d", len(keys), n*5)
	}
	// Every block of n runs holds every cell exactly once.
	for b := 0; b < 5; b++ {
		seen := map[string]bool{}
		for _, k := range keys[b*n : (b+1)*n] {
			seen[k] = true
		}
		if len(seen) != n {
			t.Errorf("block %d holds %d distinct cells, want %d", b, len(seen), n)
		}
		if b == 0 && keys[0][0] != 'W' {
			t.Error("the first block should be the warm-up round")
		}
	}
	_, again := planOf(t, twoByThree, 42)
	if !reflect.DeepEqual(keys, again) {
		t.Error("the same seed gave a different order")
	}
	_, other := planOf(t, twoByThree, 43)
	if reflect.DeepEqual(keys, other) {
		t.Error("another seed gave the same order")
	}
	// Blocks are shuffled independently: not every block in the same order.
	same := true
	for b := 2; b < 5; b++ {
		if !reflect.DeepEqual(keys[n:2*n], keys[b*n:(b+1)*n]) {
			same = false
		}
	}
	if same {
		t.Error("every repetition ran the cells in the same order")
	}
}

func TestOverridesKeepOnlyWhatIsAsked(t *testing.T) {
	s, _ := ParseSpec("t.yaml", []byte(twoByThree))
	Overrides{Envs: []string{"docker-host"}, Workloads: []string{"test.b"}, Repetitions: 2, Warmup: 0, Seed: 9}.Apply(s)
	if err := s.Normalize(testEnvs).Validate(testEnvs); err != nil {
		t.Fatal(err)
	}
	if len(s.Envs) != 1 || s.Baseline != "docker-host" || len(s.Workloads) != 1 || s.Repetitions != 2 || *s.Warmup != 0 || s.Seed != 9 {
		t.Errorf("overrides not applied: %+v", s)
	}
}

// TestOverridesDropTheDeviationsOfWorkloadsLeftOut: a preset's paper
// deviations of a workload --workloads leaves out go with it, so narrowing
// a preset stays valid.
func TestOverridesDropTheDeviationsOfWorkloadsLeftOut(t *testing.T) {
	s, err := ParseSpec("t.yaml", []byte(twoByThree+"paper: {repetitions: 20, deviations: [{param: repetitions, reason: shorter}, {workload: test.a, param: n, reason: smaller}]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	Overrides{Workloads: []string{"test.b"}, Warmup: -1}.Apply(s)
	if err := s.Normalize(testEnvs).Validate(testEnvs); err != nil {
		t.Fatal(err)
	}
	if len(s.Paper.Deviations) != 1 || s.Paper.Deviations[0].Param != "repetitions" {
		t.Errorf("deviations %+v, want the study's own (repetitions) alone", s.Paper.Deviations)
	}
}
