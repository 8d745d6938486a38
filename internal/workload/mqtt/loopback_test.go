package mqtt

import (
	"context"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

// requireMosquitto returns the mosquitto path, skipping when it is absent
// (failing in CI, which installs it).
func requireMosquitto(t *testing.T) string {
	t.Helper()
	p := findMosquitto()
	if p == "" {
		testenv.Missing(t, "mosquitto is not installed (Debian: apt-get install mosquitto)")
	}
	return p
}

// TestLoopback runs both sides over loopback against each broker, at each
// QoS, one at a time and with a window, with subscribers.
func TestLoopback(t *testing.T) {
	cases := []struct {
		name   string
		params workload.Params
	}{
		{"mosquitto qos1", workload.Params{"broker": "mosquitto", "duration": "300ms", "clients": 3}},
		{"mosquitto qos0 subs", workload.Params{"broker": "mosquitto", "duration": "300ms", "qos": 0, "subscribers": 2, "rate": 2000}},
		{"mosquitto qos1 window subs", workload.Params{"broker": "mosquitto", "duration": "300ms", "clients": 2, "inflight": 16, "subscribers": 1}},
		{"mosquitto qos2 subs", workload.Params{"broker": "mosquitto", "duration": "300ms", "qos": 2, "subscribers": 1}},
		{"mosquitto qos2 window", workload.Params{"broker": "mosquitto", "duration": "300ms", "qos": 2, "inflight": 8}},
		{"mosquitto count", workload.Params{"broker": "mosquitto", "messages": 500, "clients": 2, "rate": 5000}},
		{"embedded qos1 subs", workload.Params{"broker": "embedded", "duration": "300ms", "clients": 3, "subscribers": 2}},
		{"embedded qos2 window subs", workload.Params{"broker": "embedded", "duration": "300ms", "qos": 2, "inflight": 8, "subscribers": 1}},
		{"embedded qos0", workload.Params{"broker": "embedded", "duration": "300ms", "qos": 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if strings.HasPrefix(c.name, "mosquitto") {
				requireMosquitto(t)
			}
			p, _, err := workload.Prepare(Pub, c.params)
			if err != nil {
				t.Fatal(err)
			}
			r := workloadtest.Run(t, context.Background(), Pub, p, workload.Env{})
			t.Logf("samples %v notes %v", r.Samples, r.Notes)
		})
	}
}

func TestBadParameters(t *testing.T) {
	workloadtest.Refuses(t, Pub, []workloadtest.Refusal{
		{Params: workload.Params{"broker": "hivemq"}, Want: "not auto, mosquitto or embedded"},
		{Params: workload.Params{"qos": 3}, Want: "not 0, 1 or 2"},
		{Params: workload.Params{"clients": 0}, Want: "clients: 0 must be 1 to 5000"},
		{Params: workload.Params{"payload": "2MiB"}, Want: "payload"},
		{Params: workload.Params{"subscribers": 1, "payload": 4}, Want: "too small for subscribers"},
		{Params: workload.Params{"inflight": 0}, Want: "inflight"},
		{Params: workload.Params{"rate": -1}, Want: "rate"},
		{Params: workload.Params{"duration": "0s"}, Want: "duration"},
		{Params: workload.Params{"topic": "a/#"}, Want: "without wildcards"},
		{Params: workload.Params{"topic": "boxtax/control/end"}, Want: "boxtax/control"},
		{Params: workload.Params{"messages": -5}, Want: "messages"},
	})
}

// TestManyClientsThroughThePoller runs more one-at-a-time clients than
// get a thread each.
func TestManyClientsThroughThePoller(t *testing.T) {
	p := workloadtest.Prepare(t, Pub, workload.Params{"broker": "embedded", "clients": 300, "duration": "300ms"})
	r := workloadtest.Run(t, context.Background(), Pub, p, workload.Env{})
	if r.One(t, "errors") != 0 || r.One(t, "msgs_per_s") <= 0 {
		t.Errorf("samples %v, first error %s", r.Samples, r.Notes["first_error"])
	}
}
