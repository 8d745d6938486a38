package study

import "testing"

// FuzzSpec: any study file is parsed and validated without a panic, and a
// valid one plans without a panic (issue 15: fuzzing). Seed corpus:
// testdata/fuzz/FuzzSpec and the cases below.
func FuzzSpec(f *testing.F) {
	f.Add([]byte("name: x\nenvs: [native]\nworkloads: [test.a]\n"))
	f.Add([]byte("name: x\nrepetitions: 2\nenvs: [native, docker-bridge]\nworkloads:\n  - name: test.a\n    params: {threads: 2}\nfactors:\n  - name: threads\n    levels: [1, 2]\n"))
	f.Add([]byte("name: x\nenvs: [native]\nworkloads: [test.a]\nfactors:\n  - name: instances\n    levels: [1, 2]\ncpus: 0-1\n"))
	f.Add([]byte("name: [\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSpec("fuzz.yaml", data)
		if err != nil {
			return
		}
		if err := s.Normalize(testEnvs).Validate(testEnvs); err != nil {
			return
		}
		if _, err := s.Plan(1); err != nil {
			t.Fatalf("a valid spec does not plan: %v\n%s", err, data)
		}
	})
}
