package study

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/env"
)

// noProxyEnv is an environment without a userland proxy.
type noProxyEnv struct{ env.Environment }

func (noProxyEnv) NoLoopbackPorts() string { return "no proxy here" }

func TestCheckWireEnvs(t *testing.T) {
	plain := struct{ env.Environment }{}
	for _, tt := range []struct {
		name, yaml string
		envs       map[string]env.Environment
		err        []string // substrings of the error; none: no error
	}{
		{name: "proxy in an environment without a proxy is refused, naming what runs",
			yaml: "name: t\nenvs: [native, lxc]\nworkloads: [{name: test.net}]\nfactors: [{name: wire, levels: [host, proxy]}]\n",
			envs: map[string]env.Environment{"native": plain, "lxc": noProxyEnv{}},
			err:  []string{"wire level proxy", "environment lxc: no proxy here", "--wire host", "--envs native"}},
		{name: "proxy where every environment has one",
			yaml: "name: t\nenvs: [native]\nworkloads: [{name: test.net}]\nfactors: [{name: wire, levels: [proxy]}]\n",
			envs: map[string]env.Environment{"native": plain}},
		{name: "no proxy level",
			yaml: "name: t\nenvs: [lxc]\nworkloads: [{name: test.net}]\nfactors: [{name: wire, levels: [host, netns]}]\n",
			envs: map[string]env.Environment{"lxc": noProxyEnv{}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseSpec("t.yaml", []byte(tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			err = s.CheckWireEnvs(tt.envs)
			if len(tt.err) == 0 {
				if err != nil {
					t.Fatalf("error = %v, want none", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want one saying %q", tt.err)
			}
			for _, w := range tt.err {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q: %v", w, err)
				}
			}
		})
	}
}
