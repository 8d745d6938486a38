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
		{Workload: "http.gateway", Env: "docker-host", Status: store.RunOK, Warmup: true, Notes: map[string]string{"cpu_pct": "99", "poll": "50µs"}},
	}
	polled := append([]store.Run{}, runs...)
	for i, r := range polled[:3] {
		polled[i].Notes = map[string]string{"cpu_pct": r.Notes["cpu_pct"], "poll": "50µs"}
	}
	polled[3].Notes = map[string]string{"cpu_pct": "20", "poll": "0s"}
	const polling = "http.gateway @ native: the client busy-polled for answers (parameter poll: 50µs)"
	for _, tt := range []struct {
		name string
		runs []store.Run
		cpus int
		want []string
	}{
		{"a board of 2 CPUs", runs, 2, []string{"http.gateway @ native: the client used 80 % of a CPU, the server 45 % (medians of 3 runs) on a host of 2 CPUs"}},
		{"a board of 4 CPUs", runs, 4, []string{"http.gateway @ native: the client used 80 %"}},
		{"a server of 16 CPUs", runs, 16, nil},
		{"no host facts", runs, 0, nil},
		// Polling is named on any host, once a cell, not for a warm-up
		// nor for poll 0s.
		{"polled, a board of 2 CPUs", polled, 2, []string{polling, "http.gateway @ native: the client used 80 %"}},
		{"polled, a server of 16 CPUs", polled, 16, []string{polling}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := probeCost(tt.runs, tt.cpus)
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
