package study

import (
	"strings"
	"testing"
)

// validSpec parses yaml as the spec file name and validates it against
// testEnvs, failing the test on either error.
func validSpec(t *testing.T, name, yaml string) *Spec {
	t.Helper()
	s, err := ParseSpec(name, []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Normalize(testEnvs).Validate(testEnvs); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParseSpecErrorsNameTheLine(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"syntax", "name: x\nenvs: [native\n", "bad.yaml:"},
		{"unknown field", "name: x\nrepetitoins: 3\n", "bad.yaml:2: unknown field repetitoins"},
		{"unknown field in workload", "name: x\nenvs: [native]\nworkloads:\n  - name: test.a\n    parms: {}\n", "bad.yaml:5: unknown field parms"},
		{"wrong type", "name: x\nrepetitions: many\n", "bad.yaml:2: cannot unmarshal !!str `many` where a whole number belongs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseSpec("bad.yaml", []byte(tt.yaml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestValidateNamesLineColumnAndValidNames(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       []string
	}{
		{"unknown env", "name: x\nenvs: [native, podmn]\nworkloads: [test.a]\n",
			[]string{"bad.yaml:2:16: unknown environment \"podmn\"", "valid environments: native, docker-bridge, docker-host"}},
		{"unknown workload", "name: x\nenvs: [native]\nworkloads:\n  - test.a\n  - cpu.primes\n",
			[]string{"bad.yaml:5:5: unknown workload \"cpu.primes\"", "test.a, test.b"}},
		{"unknown param", "name: x\nenvs: [native]\nworkloads:\n  - name: test.a\n    params: {thread: 2}\n",
			[]string{"bad.yaml:4:5:", "unknown parameter(s) thread", "valid parameters: threads, size"}},
		{"baseline not an env", "name: x\nbaseline: docker-host\nenvs: [native]\nworkloads: [test.a]\n",
			[]string{"baseline \"docker-host\" is not one of the study's environments"}},
		{"factor without workload", "name: x\nenvs: [native]\nworkloads: [test.a]\nfactors:\n  - name: depth\n    levels: [1]\n",
			[]string{"bad.yaml:5:5: factor \"depth\" sets parameter \"depth\", which none of its workloads has"}},
		{"no name", "envs: [native]\nworkloads: [test.a]\n", []string{"needs a name"}},
		// Issue 15 items 9 and 12: bounds, NaN and duplicate levels.
		{"huge repetitions", "name: x\nrepetitions: 2000000000\nenvs: [native]\nworkloads: [test.a]\n",
			[]string{"repetitions must be 1 to 1000, not 2000000000"}},
		{"huge warmup", "name: x\nwarmup: 5000\nenvs: [native]\nworkloads: [test.a]\n",
			[]string{"warmup must be 0 to 100, not 5000"}},
		{"huge instances", "name: x\nenvs: [native]\nworkloads: [test.a]\nfactors:\n  - name: instances\n    levels: [1, 100000]\n",
			[]string{"level 100000 is not a whole number from 1 to 1024"}},
		{"nan param", "name: x\nenvs: [native]\nworkloads:\n  - name: test.a\n    params: {threads: .nan}\n",
			[]string{"bad.yaml:4:5: workload test.a: parameter threads is NaN"}},
		{"inf level", "name: x\nenvs: [native]\nworkloads: [test.a]\nfactors:\n  - name: threads\n    levels: [1, .inf]\n",
			[]string{"factor \"threads\": level +Inf is not a finite number"}},
		{"threads too many", "name: x\nenvs: [native]\nworkloads:\n  - name: test.a\n    params: {threads: 100000000}\n",
			[]string{"threads 100000000 is more than 4096"}},
		{"threads level too many", "name: x\nenvs: [native]\nworkloads: [test.a]\nfactors:\n  - name: threads\n    levels: [1, 100000000]\n",
			[]string{"threads 100000000 is more than 4096"}},
		{"duplicate levels", "name: x\nenvs: [native]\nworkloads: [test.a]\nfactors:\n  - name: threads\n    levels: [1, 2, \"1\"]\n",
			[]string{"bad.yaml:5:5: factor \"threads\" lists level \"1\" twice"}},
		// Issue 25 item 15: one environment or one duration spelled twice.
		{"same environment restating its default", "name: x\nenvs: [native, docker-bridge, docker-bridge+network=bridge]\nworkloads: [test.a]\n",
			[]string{`bad.yaml:2:31: environments "docker-bridge" and "docker-bridge+network=bridge" are the same environment, docker-bridge`}},
		{"same options in another order", "name: x\nenvs: [docker-bridge+storage=bind+seccomp=unconfined, docker-bridge+seccomp=unconfined+storage=bind]\nworkloads: [test.a]\n",
			[]string{`environments "docker-bridge+storage=bind+seccomp=unconfined" and "docker-bridge+seccomp=unconfined+storage=bind" are the same environment`}},
		{"same duration", "name: x\nenvs: [native]\nworkloads: [test.a]\nfactors:\n  - name: size\n    levels: [100ms, 0.1s, 100000us]\n",
			[]string{`factor "size" lists levels "100ms" and "0.1s", the same duration`, `levels "100ms" and "100000us"`}},
		{"too many runs", "name: x\nrepetitions: 1000\nenvs: [native]\nworkloads: [test.a]\nfactors:\n  - name: threads\n    levels: [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50]\n  - name: size\n    levels: [1KiB,2KiB,3KiB,4KiB,5KiB,6KiB,7KiB,8KiB,9KiB,10KiB,11KiB,12KiB,13KiB,14KiB,15KiB,16KiB,17KiB,18KiB,19KiB,20KiB,21KiB,22KiB,23KiB,24KiB,25KiB]\n",
			[]string{"more than 1000000: run fewer levels or repetitions"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseSpec("bad.yaml", []byte(tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			err = s.Normalize(testEnvs).Validate(testEnvs)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestValidateFillsDefaults(t *testing.T) {
	s := validSpec(t, "ok.yaml", "name: x\nenvs: [docker-host, native]\nworkloads: [test.a]\n")
	if s.Repetitions != DefaultRepetitions || *s.Warmup != DefaultWarmup || s.Baseline != "native" {
		t.Errorf("defaults: reps %d warmup %d baseline %q", s.Repetitions, *s.Warmup, s.Baseline)
	}
	// The rendered spec parses back to the same study.
	again, err := ParseSpec("again", []byte(s.YAML()))
	if err != nil {
		t.Fatalf("rendered spec does not parse: %v\n%s", err, s.YAML())
	}
	if err := again.Normalize(testEnvs).Validate(testEnvs); err != nil || again.Baseline != "native" || len(again.Envs) != 2 {
		t.Errorf("round trip: %v %+v", err, again)
	}
}

func TestEveryPresetIsValid(t *testing.T) {
	for _, name := range Presets() {
		t.Run(name, func(t *testing.T) {
			s, err := Preset(name)
			if err != nil {
				t.Fatal(err)
			}
			if s.Name != name {
				t.Errorf("preset file %s names itself %q", name, s.Name)
			}
			// Workload names are checked where every workload is linked in (cli tests).
			if len(s.Envs) == 0 || len(s.Workloads) == 0 {
				t.Error("preset has no envs or workloads")
			}
		})
	}
}

func TestLoadUnknownPresetListsPresets(t *testing.T) {
	_, err := Load(t.Context(), "quik")
	if err == nil || !strings.Contains(err.Error(), `unknown study "quik"`) || !strings.Contains(err.Error(), "quick") {
		t.Fatalf("error %v", err)
	}
	_, err = Load(t.Context(), "./missing.yaml")
	if err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Fatalf("error %v", err)
	}
}

func TestBackgroundFactor(t *testing.T) {
	yaml := "name: x\nenvs: [native]\nworkloads: [test.a, test.b]\nfactors:\n  - name: load\n    levels: [none, busy]\n    background:\n      none:\n      busy: {workload: test.b, params: {threads: 2}}\n"
	s := validSpec(t, "bg.yaml", yaml)
	cells, err := s.Cells()
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 4 {
		t.Fatalf("%d cells, want 2 workloads x 2 load levels", len(cells))
	}
	if _, set := cells[0].Params["load"]; set {
		t.Error("a background factor must not set a workload parameter")
	}
	if bg := s.BackgroundFor(map[string]string{"load": "busy"}); len(bg) != 1 || bg[0].Workload != "test.b" {
		t.Errorf("background for busy: %+v", bg)
	}
	if bg := s.BackgroundFor(map[string]string{"load": "none"}); len(bg) != 0 {
		t.Errorf("background for none: %+v", bg)
	}
	bad := strings.Replace(yaml, "busy: {workload: test.b", "busy: {workload: test.z", 1)
	s, _ = ParseSpec("bg.yaml", []byte(bad))
	if err := s.Normalize(testEnvs).Validate(testEnvs); err == nil || !strings.Contains(err.Error(), `unknown workload "test.z"`) {
		t.Errorf("error %v", err)
	}
	missing := strings.Replace(yaml, "levels: [none, busy]", "levels: [none, busy, heavy]", 1)
	s, _ = ParseSpec("bg.yaml", []byte(missing))
	if err := s.Normalize(testEnvs).Validate(testEnvs); err == nil || !strings.Contains(err.Error(), `level "heavy" is not under background`) {
		t.Errorf("error %v", err)
	}
}

// TestBaselineIsNamedAsItsEnvironment: issue 25 item 23, "baseline X is not
// one of the study's environments (X)": a baseline spelled otherwise than
// its environment is that environment, and a baseline naming an invalid
// environment adds no contradicting error of its own.
func TestBaselineIsNamedAsItsEnvironment(t *testing.T) {
	s, err := ParseSpec("b.yaml", []byte("name: x\nbaseline: docker-bridge+seccomp=unconfined+cpus=1.50\nenvs: [native, docker-bridge+cpus=1.5+seccomp=unconfined]\nworkloads: [test.a]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Normalize(testEnvs).Validate(testEnvs); err != nil {
		t.Fatalf("the baseline is the environment, spelled otherwise: %v", err)
	}
	if s.Baseline != "docker-bridge+cpus=1.5+seccomp=unconfined" {
		t.Errorf("baseline %q, want the environment's canonical name", s.Baseline)
	}
	s, err = ParseSpec("b.yaml", []byte("name: x\nbaseline: docker-bridge+cpus=NaN\nenvs: [native, docker-bridge+cpus=NaN]\nworkloads: [test.a]\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = s.Normalize(testEnvs).Validate(testEnvs)
	if err == nil || !strings.Contains(err.Error(), "not a positive number of CPUs") || strings.Contains(err.Error(), "baseline") {
		t.Errorf("Validate = %v; want the environment's error alone", err)
	}
}
