package cli

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/env/engines"
	"github.com/boxtax/boxtax/internal/report/papers"
	"github.com/boxtax/boxtax/internal/study"
)

// TestEveryPresetValidates checks each shipped study against the real
// workloads and environments, so a preset can never fail on a typo.
func TestEveryPresetValidates(t *testing.T) {
	for _, name := range study.Presets() {
		t.Run(name, func(t *testing.T) {
			s, err := study.Preset(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Normalize(engines.Names()).Validate(engines.Names()); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Plan(1); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestEveryPresetNamesTranscribedPublishedValues: each preset's paper id
// has its values in internal/report/papers, so --compare-paper works for
// every preset (issue 14 item 2).
func TestEveryPresetNamesTranscribedPublishedValues(t *testing.T) {
	for _, name := range study.Presets() {
		s, err := study.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Paper == nil || s.Paper.ID == "" {
			t.Errorf("%s: names no paper", name)
			continue
		}
		if err := checkPaperID(s); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestSpecIsValidWithoutItsPrograms: issue 25, a fresh machine without
// sysbench and iperf3 failed TestEveryPresetValidates, because validation
// looked for the tools on this host. A spec is valid whatever this host
// has; the run's up-front host check (CheckHost) refuses a missing program
// before the first run, naming it.
func TestSpecIsValidWithoutItsPrograms(t *testing.T) {
	spec, err := study.ParseSpec("tools.yaml", []byte(`name: tools
envs: [native, docker-bridge]
workloads:
  - name: cmd
    params: {cmd: boxtax-absent-tool --time=1 run}
  - name: cmd.server
    params:
      server: boxtax-absent-server -s -p {port}
      ready: listening
      client: boxtax-absent-client -c {host} -p {port}
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := spec.Normalize(engines.Names()).Validate(engines.Names()); err != nil {
		t.Fatalf("a spec whose programs this host lacks must validate: %v", err)
	}
	if _, err := spec.Plan(1); err != nil {
		t.Fatalf("and plan: %v", err)
	}
	err = spec.CheckHost()
	for _, want := range []string{`"boxtax-absent-tool" is not on this host`, `"boxtax-absent-server" is not on this host`, "install it or give its path"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckHost = %v, want it to say %q", err, want)
		}
	}
}

// checkPaperID refuses a spec whose paper id names no transcribed paper.
func checkPaperID(spec *study.Spec) error {
	return spec.CheckPaperID(papers.IDs())
}
