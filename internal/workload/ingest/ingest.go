package ingest

import (
	"context"
	"errors"
	"time"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/workload"
)

// Levels of the affinity parameter.
const (
	affinityDedicated = "dedicated" // the environment's CPUs split among the nodes
	affinityShared    = "shared"    // every node on all of them
)

// Targets: what the devices talk to.
const (
	targetNginx = "nginx" // the deployment: nginx, the nodes, redis
	targetSink  = "sink"  // an in-process endpoint that answers at once: the generator's own ceiling
)

// Fixed settings of the deployment.
const (
	streamLen = 100 // messages kept per device in redis (XADD MAXLEN ~)
	redisPool = 16  // redis connections per node at most
)

// Ingest is the iot.ingest workload.
var Ingest = workload.DefineSides[config](workload.Info{
	Name:     "iot.ingest",
	Summary:  "simulated IoT devices POST 36-byte readings through a real nginx round-robin to K ingest nodes (own CPU affinity each) storing into a real redis",
	SeedTool: "DeviceHive behind nginx, Java device simulators (Kałaska 2023)",
	Metrics: []workload.Metric{
		{Name: "messages", Unit: "messages", Label: "messages", HigherIsBetter: true,
			Description: "messages acknowledged (201) during the measured time, warm-up excluded (the seed's Fig. 4)"},
		{Name: "messages_per_s", Unit: "messages/s", Label: "messages/s", HigherIsBetter: true,
			Description: "acknowledged messages divided by the measured time"},
		{Name: "error_pct", Unit: "%", Label: "errors %",
			Description: "failed messages (an error status, or no answer: refused, reset) of all messages sent in the measured time, in percent (the seed's Fig. 5)"},
		nodeTime.Stat("q1", "Q1", "first quartile of the processing time inside the nodes, request read to reply written, over every acknowledged message (the seed's Tables 1-3)"),
		nodeTime.Median(),
		nodeTime.Q3(),
		deviceRR.Stat("q1", "Q1", "first quartile of the time from sending a message to reading its acknowledgement, at the device (the seed's Tables 4-6)"),
		deviceRR.Median(),
		deviceRR.Q3(),
	},
})

// nodeTime is the processing time inside the nodes, request read to reply written.
var nodeTime = workload.Distribution{Name: "node", Label: "node", Unit: "us", Of: "processing time inside the nodes"}

// deviceRR is the request-response time at the device.
var deviceRR = workload.Distribution{Name: "rr", Label: "request-response", Unit: "ms", Of: "request-response time at the device"}

// config is the parsed parameters.
type config struct {
	duration time.Duration
	devices  int
	nodes    int
	affinity string
	payload  int
	warmup   int
	target   string
}

// Declare implements workload.Declarer.
func (c *config) Declare(d *workload.Decl) {
	d.Duration(&c.duration, "duration", 10*time.Second, "how long the devices send after their warm-up (the seed: 10 min)")
	d.Positive()
	d.Int(&c.devices, "devices", 100, "simulated devices, each with a keep-alive connection of its own, sending in a closed loop (the seed: 870 to 2610)")
	d.Range(1, 20000)
	d.Int(&c.nodes, "nodes", 2, "ingest nodes behind nginx, each an OS process of its own (the seed: 2, 5, 7)")
	d.Range(1, 64)
	d.String(&c.affinity, "affinity", affinityDedicated, "dedicated: the environment's CPUs divided among the nodes as evenly and disjointly as possible; shared: every node on all of them (the same total)")
	d.OneOf(affinityDedicated, affinityShared)
	d.ByteCount(&c.payload, "payload", 36, "bytes of random data per message (the seed: 36), at most 400")
	d.Range(1, 400)
	d.Int(&c.warmup, "warmup", 3, "messages each device sends first, left out of every figure (the seed: '3 different messages are sent to warm-up the platform'; boxtax reads it as 3 per device)")
	d.Range(0, 1000)
	d.String(&c.target, "target", targetNginx, "nginx: the deployment under test; sink: an endpoint in the server worker that answers at once, to measure the device simulator's own ceiling")
	d.OneOf(targetNginx, targetSink)
}

// config keeps these optional abilities (checked by the compiler).
var (
	_ workload.HostChecker = (*config)(nil)
	_ workload.Requirer    = (*config)(nil)
)

// files is how many open files the server side needs: nginx holds a
// device's connection and one to a node for each.
func (c config) files() int64 { return int64(nginxFiles(c.devices)) }

// Requirements implements workload.Requirer: the real redis and nginx, and
// enough open files for every device's connection.
func (c *config) Requirements() workload.Requirements {
	r := workload.Requirements{Ulimits: map[string]int64{"nofile": c.files()}}
	if c.target == targetNginx {
		r.HostPrograms = []string{redisServer, nginxBin}
	}
	return r
}

// Protocols implements workload.Sides.
func (*config) Protocols() []string { return []string{"tcp"} }

// nodeCPUs gives each node its CPU set: with dedicated affinity, cpus
// split into disjoint parts as even as possible (with more nodes than
// CPUs, consecutive nodes share one CPU, and no CPU serves two groups);
// with shared, all of cpus for every node.
func nodeCPUs(cpus cpuset.Set, nodes int, affinity string) ([]string, error) {
	if len(cpus) == 0 {
		return nil, errors.New("no CPUs to give the nodes")
	}
	out := make([]string, nodes)
	if affinity == affinityShared {
		for i := range out {
			out[i] = cpus.String()
		}
		return out, nil
	}
	if nodes <= len(cpus) {
		parts, err := cpus.Split(nodes)
		if err != nil {
			return nil, err
		}
		for i, p := range parts {
			out[i] = p.String()
		}
		return out, nil
	}
	for i := range out {
		out[i] = cpus[i*len(cpus)/nodes : i*len(cpus)/nodes+1].String()
	}
	return out, nil
}

// Run implements workload.Config: the server side and the devices in
// this process over loopback; the server's notes come as server.<key>.
func (c *config) Run(ctx context.Context, _ workload.Env, e workload.Emitter) error {
	return workload.RunLoopback(ctx, c, e)
}

// CheckHost implements workload.HostChecker: the nginx deployment runs the
// host's redis-server and nginx.
func (c *config) CheckHost() error {
	if c.target != targetNginx {
		return nil
	}
	if err := workload.NeedProgram(redisServer, "redis-server"); err != nil {
		return err
	}
	return workload.NeedProgram(nginxBin, "nginx-light")
}
