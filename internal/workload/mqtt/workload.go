package mqtt

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// Broker choices.
const (
	brokerAuto      = "auto"      // mosquitto where it is installed, else the embedded one
	brokerMosquitto = "mosquitto" // mosquitto or an error
	brokerEmbedded  = "embedded"  // the embedded broker of this package
)

// Pub is the mqtt.pub workload: publishers outside the environment load an
// MQTT broker inside it, as the seed's mqtt-benchmark loaded mosquitto.
var Pub = workload.DefineSides[config](workload.Info{
	Name:     "mqtt.pub",
	Summary:  "MQTT publishers outside the environment against a broker in it (the real mosquitto), as mqtt-benchmark: messages/s, publish-to-acknowledgement and publish-to-subscriber latency",
	SeedTool: "krylovsk/mqtt-benchmark against mosquitto",
	Metrics: []workload.Metric{
		{Name: "msgs_per_s", Unit: "msg/s", Label: "MQTT msg/s", HigherIsBetter: true,
			Description: "acknowledged messages of all clients divided by the wall time from the first publish to the last acknowledgement (QoS 0: to the answer of a ping after the last publish)"},
		{Name: "client_msgs_per_s", Unit: "msg/s", Label: "msg/s per client", HigherIsBetter: true, Secondary: true, Aggregate: workload.AggregateMean,
			Description: "mean over clients of each client's acknowledged messages over its own first publish to last acknowledgement: the seed's throughput"},
		ackTime.Mean("mean time from a publish being written to its acknowledgement (PUBACK at QoS 1, PUBCOMP at QoS 2): the seed's latency"),
		secondary(ackTime.Std()),
		secondary(ackTime.Percentile(50)),
		ackTime.Percentile(99),
		e2eTime.Mean("mean time from a publish being written to a subscriber reading it (only with subscribers)"),
		secondary(e2eTime.Percentile(50)),
		secondary(e2eTime.Percentile(99)),
		{Name: "errors", Unit: "msg", Label: "errors", Secondary: true, Aggregate: workload.AggregateSum,
			Description: "messages not acknowledged: in flight when a connection failed or unanswered 5 s after the last publish, plus one per failed connection attempt"},
		{Name: "error_pct", Unit: "%", Label: "error %",
			Description: "errors as a percentage of all message attempts (acknowledged plus errors)"},
	},
})

// ackTime is the time from a publish to its acknowledgement.
var ackTime = workload.Distribution{Name: "ack", Label: "ack", Unit: "ms", Of: "publish-to-acknowledgement time"}

// e2eTime is the time from a publish to a subscriber reading it.
var e2eTime = workload.Distribution{Name: "e2e", Label: "e2e", Unit: "ms", Of: "publish-to-subscriber time (only with subscribers)"}

// secondary is m kept out of the overhead table.
func secondary(m workload.Metric) workload.Metric {
	m.Secondary = true
	return m
}

// config is mqtt.pub's parameters, checked.
type config struct {
	broker      string
	clients     int
	qosParam    int
	qos         byte
	payload     int
	duration    time.Duration
	messages    int
	rate        float64
	inflight    int
	subscribers int
	topic       string
}

// controlTopic carries the client's end-of-session message to the server.
const controlTopic = "boxtax/control/end"

// Declare implements workload.Declarer.
func (c *config) Declare(d *workload.Decl) {
	d.String(&c.broker, "broker", brokerAuto, "auto: the real mosquitto when it is installed (looked up on PATH, /usr/sbin, /usr/local/sbin), else the embedded Go broker; mosquitto: mosquitto or an error; embedded: the embedded broker")
	d.Int(&c.clients, "clients", 1, "publisher clients, each with a connection of its own (mqtt-benchmark -clients)")
	d.Range(1, 5000)
	d.Int(&c.qosParam, "qos", 1, "QoS of every publish: 0, 1 or 2 (mqtt-benchmark -qos)")
	d.ByteCount(&c.payload, "payload", 100, "payload bytes per message (mqtt-benchmark -size); at least 8 with subscribers, which read a time stamp from it")
	d.Duration(&c.duration, "duration", 5*time.Second, "how long each client publishes; with messages set, the longest it may take")
	d.Positive()
	d.Int(&c.messages, "messages", 0, "messages per client (mqtt-benchmark -count); 0: as many as the duration allows")
	d.Min(0, "as many as the duration allows")
	d.Float(&c.rate, "rate", 0, "messages per second per client; 0: unbounded, as the seed")
	d.Min(0, "unbounded")
	d.Int(&c.inflight, "inflight", 1, "unacknowledged QoS 1/2 publishes a client may have; 1 waits for each acknowledgement before the next publish, as mqtt-benchmark does")
	d.Range(1, 65535)
	d.Int(&c.subscribers, "subscribers", 0, "subscriber clients, each receiving every message, for the end-to-end latency")
	d.Range(0, 1000)
	d.String(&c.topic, "topic", "boxtax/bench", "the topic every client publishes to (mqtt-benchmark -topic)")
}

// config keeps these optional abilities (checked by the compiler).
var _ workload.Requirer = (*config)(nil)

// Check implements workload.Checker.
func (c *config) Check() error {
	switch {
	case c.broker != brokerAuto && c.broker != brokerMosquitto && c.broker != brokerEmbedded:
		return fmt.Errorf("parameter broker: %q is not auto, mosquitto or embedded", c.broker)
	case c.qosParam < 0 || c.qosParam > 2:
		return fmt.Errorf("parameter qos: %d is not 0, 1 or 2", c.qosParam)
	case c.payload < 0 || c.payload > 1<<20:
		return fmt.Errorf("parameter payload: %d bytes must be 0 to 1 MiB", c.payload)
	case c.subscribers > 0 && c.payload < 8:
		return fmt.Errorf("parameter payload: %d bytes is too small for subscribers, which read an 8-byte time stamp from it; use 8 or more", c.payload)
	case c.topic == "" || strings.ContainsAny(c.topic, "+#\x00") || strings.HasPrefix(c.topic, "$") || strings.HasPrefix(c.topic, "boxtax/control"):
		return fmt.Errorf("parameter topic: %q must be a topic name without wildcards (+, #), not starting with $ or boxtax/control", c.topic)
	}
	c.qos = byte(c.qosParam)
	if c.broker == brokerMosquitto && findMosquitto() == "" {
		return fmt.Errorf("parameter broker: mosquitto is not installed here (looked on PATH and in %s): install it (apt-get install mosquitto) or use broker: auto or embedded", strings.Join(mosquittoDirs, ", "))
	}
	return nil
}

// Protocols implements workload.Sides.
func (*config) Protocols() []string { return []string{"tcp"} }

// Requirements implements workload.Requirer: the host's mosquitto, so the
// very binary that runs natively runs in the container.
func (c *config) Requirements() workload.Requirements {
	if c.broker == brokerEmbedded {
		return workload.Requirements{}
	}
	if path := findMosquitto(); path != "" {
		return workload.Requirements{HostPrograms: []string{path}}
	}
	return workload.Requirements{}
}

// mosquittoDirs are where mosquitto is looked for when it is not on PATH
// (Debian installs it in /usr/sbin, which a user's PATH may lack).
var mosquittoDirs = []string{"/usr/sbin", "/usr/local/sbin", "/usr/bin", "/usr/local/bin"}

// findMosquitto is the absolute path of the mosquitto executable, or "".
func findMosquitto() string {
	if p, err := exec.LookPath("mosquitto"); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
	}
	for _, d := range mosquittoDirs {
		p := filepath.Join(d, "mosquitto")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// Run implements workload.Config: broker and clients in this process's
// care over loopback.
func (c *config) Run(ctx context.Context, _ workload.Env, e workload.Emitter) error {
	return workload.RunLoopback(context.WithValue(ctx, inProcessKey{}, true), c, e)
}
