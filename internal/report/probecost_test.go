package report

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/store"
)

func TestProbeCost(t *testing.T) {
	run := func(env, client, server string) store.Run {
		notes := map[string]string{}
		if client != "" {
			notes["cpu_pct"] = client
		}
		if server != "" {
			notes["server.cpu_pct"] = server
		}
		return store.Run{Workload: "http.gateway", Env: env, Status: store.RunOK, Notes: notes}
	}
	runs := []store.Run{
		run("native", "80", "40"), run("native", "90", "50"), run("native", "70", "45"),
		run("docker-bridge", "20", "60"), run("docker-bridge", "30", "70"),
		run("docker-host", "", ""), // a run from before the probes measured their CPU
		{Workload: "http.gateway", Env: "docker-host", Status: store.RunOK, Warmup: true, Notes: map[string]string{"cpu_pct": "99"}},
	}
	for _, tt := range []struct {
		name string
		cpus int
		want []string
	}{
		{"a board of 2 CPUs", 2, []string{"http.gateway @ native: the client used 80 % of a CPU, the server 45 % (medians of 3 runs) on a host of 2 CPUs"}},
		{"a board of 4 CPUs", 4, []string{"http.gateway @ native: the client used 80 %"}},
		{"a server of 16 CPUs", 16, nil},
		{"no host facts", 0, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := probeCost(runs, tt.cpus)
			if len(got) != len(tt.want) {
				t.Fatalf("%d warnings, want %d: %+v", len(got), len(tt.want), got)
			}
			for i, w := range got {
				if !strings.HasPrefix(w.Text, tt.want[i]) || w.Kind != WarnNote || w.Subject != "http.gateway @ native" {
					t.Errorf("warning %+v, want it to start %q", w, tt.want[i])
				}
			}
		})
	}
}
