package study

import (
	"context"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/study/launch"
	"github.com/boxtax/boxtax/internal/workload"
)

// fakeNet is a client-server workload for testing the wire factor.
type fakeNet struct{ fake }

// Configure implements workload.Workload: a fakeNet is its own config.
func (f fakeNet) Configure(workload.Params) (workload.Config, error)     { return f, nil }
func (f fakeNet) ConfigureSides(workload.Params) (workload.Sides, error) { return f, nil }
func (fakeNet) Protocols() []string                                      { return []string{"tcp"} }
func (fakeNet) Serve(context.Context, string, workload.Emitter) error {
	return nil
}
func (fakeNet) Client(context.Context, string, workload.Emitter) error {
	return nil
}

func init() { workload.Register(fakeNet{fake{"test.net"}}) }

const netStudy = `name: t
envs: [native, docker-bridge]
workloads: [test.a, test.net]
factors:
  - name: wire
    levels: [host, netns:100mbit]
`

func TestWireFactorAppliesToNetworkWorkloadsOnly(t *testing.T) {
	cells, _ := planOf(t, netStudy, 1)
	// test.a: 2 envs; test.net: 2 envs x 2 wires.
	if len(cells) != 6 {
		t.Fatalf("%d cells, want 6", len(cells))
	}
	for _, c := range cells {
		_, has := c.Levels[launch.WireFactor]
		if has != (c.Workload == "test.net") {
			t.Errorf("cell %s: wire level present %v", c.Key(), has)
		}
		if _, set := c.Params["wire"]; set {
			t.Errorf("cell %s: the wire factor set a parameter", c.Key())
		}
	}
	if got := cells[3].Key(); got != "test.net|env=native|wire=netns:100mbit" {
		t.Errorf("cell key %q", got)
	}
}

func TestWireFactorErrors(t *testing.T) {
	cases := map[string]string{
		"bad level":       "name: t\nenvs: [native]\nworkloads: [test.net]\nfactors:\n  - name: wire\n    levels: [host, lan]\n",
		"no net workload": "name: t\nenvs: [native]\nworkloads: [test.a]\nfactors:\n  - name: wire\n    levels: [netns]\n",
	}
	want := map[string]string{
		"bad level":       `t.yaml:5:5: factor wire: wire level "lan": valid levels are host, proxy, netns`,
		"no net workload": "but the study runs none (network workloads: ",
	}
	for name, yaml := range cases {
		t.Run(name, func(t *testing.T) {
			s, err := ParseSpec("t.yaml", []byte(yaml))
			if err != nil {
				t.Fatal(err)
			}
			err = s.Normalize(testEnvs).Validate(testEnvs)
			if err == nil || !strings.Contains(err.Error(), want[name]) {
				t.Errorf("error %v, want %q", err, want[name])
			}
		})
	}
}

func TestSetWireFromTheCommandLine(t *testing.T) {
	cases := []struct {
		name   string
		yaml   string
		levels []string
		rate   string
		want   string
	}{
		{"levels replace the study's", netStudy, []string{"host", "netns"}, "", "[host netns]"},
		{"rate shapes every netns level", netStudy, nil, "10mbit", "[host netns:10mbit]"},
		{"both", netStudy, []string{"netns", "proxy"}, "1gbit", "[netns:1gbit proxy]"},
		{"a study without the factor gets it", "name: t\nenvs: [native]\nworkloads: [test.net]\n", []string{"netns"}, "100mbit", "[netns:100mbit]"},
		{"a rate alone adds netns", "name: t\nenvs: [native]\nworkloads: [test.net]\n", nil, "100mbit", "[netns:100mbit]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := ParseSpec("t.yaml", []byte(c.yaml))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.SetWire(c.levels, c.rate); err != nil {
				t.Fatal(err)
			}
			if err := s.Normalize(testEnvs).Validate(testEnvs); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range s.Factors {
				if f.Name == launch.WireFactor {
					for _, lv := range f.Levels {
						got = append(got, lv.(string))
					}
				}
			}
			if "["+strings.Join(got, " ")+"]" != c.want {
				t.Errorf("levels %v, want %s", got, c.want)
			}
		})
	}
	s, _ := ParseSpec("t.yaml", []byte(netStudy))
	if err := s.SetWire(nil, "fast"); err == nil || !strings.Contains(err.Error(), "--wire-rate fast") {
		t.Errorf("bad rate: %v", err)
	}
}
