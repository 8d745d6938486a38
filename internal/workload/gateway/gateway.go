package gateway

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/workload"
)

// Gateway is the http.gateway workload.
var Gateway = workload.DefineSides[config](workload.Info{
	Name:     "http.gateway",
	Summary:  "an IoT device gateway serving a sensor's latest reading as SenML JSON over HTTP, loaded by concurrent clients, as the LinkSmart Device Gateway under ApacheBench",
	SeedTool: "LinkSmart Device Gateway + ApacheBench (ab -c)",
	Metrics: []workload.Metric{
		{Name: "requests_per_s", Unit: "requests/s", Label: "req/s", HigherIsBetter: true,
			Description: "requests answered with a whole 2xx response, over all clients, divided by the load's wall time (ab's and wrk's requests per second)"},
		requestLatency.Mean("mean time from starting a request (connecting, without keep-alive) to its whole response, of the requests that succeeded (ab's time per request)"),
		requestLatency.Percentile(50),
		requestLatency.Percentile(90),
		requestLatency.Percentile(99),
		{Name: "errors", Unit: "requests", Label: "errors", Aggregate: workload.AggregateSum, Secondary: true,
			Description: "failed requests: connection refused or not made, reset or closed before the whole response, timed out, or answered with a status other than 2xx"},
		{Name: "error_rate_pct", Unit: "%", Label: "errors %", Absolute: true,
			Description: "failed requests as a share of all requests made (succeeded and failed), in percent"},
	},
})

// requestLatency is the time from starting a request to its whole response.
var requestLatency = workload.Distribution{Name: "latency", Label: "lat", Unit: "ms", Of: "request latency"}

// config is the parsed parameters.
type config struct {
	clients   int
	keepAlive bool
	duration  time.Duration
	requests  int
	timeout   time.Duration
	threads   int
	agentSpec string
	agent     agentSpec
	period    time.Duration
	pollSpec  string        // auto, or poll as given
	poll      time.Duration // when not auto
}

// Declare implements workload.Declarer.
func (c *config) Declare(d *workload.Decl) {
	d.Int(&c.clients, "clients", 10, "concurrent client connections, each a closed loop of requests (ab -c, wrk -c); the seed swept 1 to 150")
	d.Range(1, maxClients)
	d.Bool(&c.keepAlive, "keepalive", false, "reuse each connection for request after request (ab -k); false opens a TCP connection per request, as ab without -k")
	d.Duration(&c.duration, "duration", 5*time.Second, "how long the clients load the gateway (ab -t); with requests, the most it may take")
	d.Positive()
	d.Int(&c.requests, "requests", 0, "stop after this many requests in all (ab -n); 0 loads for the whole duration")
	d.Min(0, "for the whole duration")
	d.Int(&c.threads, "threads", 0, "the load generator's threads, each an event loop over its share of the connections (wrk -t); 0: one per CPU the client may use (its affinity, as a study pins it)")
	d.Range(0, 256, "one per CPU")
	d.String(&c.pollSpec, "poll", "0", "how long each of the load generator's threads looks for answers without sleeping before it sleeps in epoll (as sockperf's busy-poll), e.g. 50us, at the cost of the client's CPU for the whole load; 0: never (a thread with "+strconv.Itoa(napMinClients)+" or more connections naps "+napLength.String()+" on a timer first); auto: "+defaultPoll.String()+" when every thread has a CPU of its own that no server or other client uses (a study pins the client of a single instance so), else 0")
	d.Duration(&c.timeout, "timeout", 2*time.Second, "the longest a request (connecting included) may take before it counts as an error (wrk --timeout)")
	d.Positive()
	d.String(&c.agentSpec, "agent", agentSimulated, "the gateway's device agent: simulated (a CO2 sensor, 52-byte body), file:PATH (a sensor file read every period), command:PROG ARGS (run every period; its output is the reading) or stream:PROG ARGS (runs on; every line it writes is a reading)")
	d.Duration(&c.period, "period", time.Second, "how often the agent takes a reading")
}

// config keeps these optional abilities (checked by the compiler).
var (
	_ workload.HostChecker = (*config)(nil)
	_ workload.Requirer    = (*config)(nil)
)

// maxClients is the most concurrent clients: far beyond the seed's 150,
// within what one process's descriptors and ports allow.
const maxClients = 10000

// defaultPoll is how long a load thread busy-polls under poll: auto:
// longer than the gaps between a saturated gateway's answers (some 6 us on
// the development VM, where 10 to 100 us served the same rate) and than an
// idle vCPU takes to wake (some 35 us), so that it seldom sleeps under load.
const defaultPoll = 50 * time.Microsecond

// maxPoll bounds poll: a thread that finds nothing for longer sleeps.
const maxPoll = 10 * time.Millisecond

// Check implements workload.Checker.
func (c *config) Check() error {
	var err error
	if c.agent, err = parseAgent(c.agentSpec); err != nil {
		return err
	}
	if !c.pollAuto() {
		if c.poll, err = time.ParseDuration(c.pollSpec); err != nil || c.poll < 0 || c.poll > maxPoll {
			return fmt.Errorf("parameter poll: %q must be auto, 0 or a duration up to %v, e.g. 50us", c.pollSpec, maxPoll)
		}
	}
	switch {
	case c.period < time.Millisecond:
		return fmt.Errorf("parameter period: %v must be at least 1ms", c.period)
	}
	return nil
}

// Protocols implements workload.Sides.
func (*config) Protocols() []string { return []string{"tcp"} }

// Requirements implements workload.Requirer: a command agent's program must
// be in the container too.
func (c *config) Requirements() workload.Requirements {
	if prog := c.agent.program(); prog != "" {
		return workload.Requirements{HostPrograms: []string{prog}}
	}
	return workload.Requirements{}
}

// Run implements workload.Config: the gateway and its clients in this
// process over loopback.
func (c *config) Run(ctx context.Context, _ workload.Env, e workload.Emitter) error {
	return workload.RunLoopback(context.WithValue(ctx, inProcessKey{}, true), c, e)
}

// inProcessKey marks the context of a Run, which has the gateway in the
// same process as the load generator.
type inProcessKey struct{}

// Serve implements workload.Sides: the gateway.
func (c *config) Serve(ctx context.Context, addr string, e workload.Emitter) error {
	// As many Ps as CPUs it may use: a native worker pins itself after Go
	// started with one P per CPU of the host, while a container's starts in
	// its cpuset; with 2 Ps on its 1 CPU the native gateway's p99 was 5
	// times the containers' (goroutines waiting for the kernel's time slice).
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(usableCPUs()))
	return serve(ctx, *c, addr, e)
}

// Client implements workload.Sides: the load generator, for one
// session with the gateway at addr.
func (c *config) Client(ctx context.Context, addr string, e workload.Emitter) error {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(usableCPUs())) // as Serve
	sess, err := openSession(ctx, addr)
	if err != nil {
		return err
	}
	defer sess.close()
	ct := readConntrack()
	res, err := runLoad(ctx, loadConfig{addr: addr, path: ReadingPath, clients: c.clients, keepAlive: c.keepAlive,
		duration: c.duration, requests: int64(c.requests), timeout: c.timeout, threads: c.threads,
		quietWait: ctx.Value(inProcessKey{}) == nil, poll: c.pollFor(ctx)})
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if !sess.held {
		e.Note("session", "none: the server does not hold boxtax sessions")
	}
	if after := readConntrack(); ct.ok && after.ok {
		e.Note("conntrack_entries", fmt.Sprintf("%d of %d after the load", after.count, after.max))
		if d := after.drops - ct.drops; d > 0 {
			res.conntrackDrops = d
			e.Note("conntrack_drops", strconv.FormatInt(d, 10))
			e.Note("conntrack_full", "the host's connection tracking table was full: the kernel dropped new connections' packets (they retry after 1 s); "+
				"raise net.netfilter.nf_conntrack_max, shorten nf_conntrack_tcp_timeout_time_wait, or make fewer connections (keepalive, requests)")
		}
	}
	return report(res, *c, e)
}

func (c *config) pollAuto() bool { return c.pollSpec == "auto" }

// pollFor is how long the load's threads busy-poll (see eventLoop.wait).
// Under auto only where polling takes no CPU from a server or another
// client: not where they share its CPUs (Run's client, with the gateway
// in its process; the clients of concurrent instances), on fewer CPUs than
// the host has online (placed: a study pins the client to a CPU no server
// is pinned to), with no more threads than those CPUs.
func (c *config) pollFor(ctx context.Context) time.Duration {
	if !c.pollAuto() {
		return c.poll
	}
	if workload.SharedCPUs(ctx) {
		return 0
	}
	online, err := cpuset.Online()
	if err != nil {
		return 0
	}
	if mine := affinityCPUs(); mine == 0 || mine >= len(online) || c.threads > mine {
		return 0
	}
	return defaultPoll
}

// report emits a load's metrics and notes.
func report(res *loadResult, c config, e workload.Emitter) error {
	errs := res.errorCount()
	e.Note("clients", strconv.Itoa(c.clients))
	e.Note("keepalive", strconv.FormatBool(c.keepAlive))
	e.Note("threads", strconv.Itoa(res.threads))
	e.Note("poll", res.poll.String())
	e.Note("requests_ok", strconv.FormatInt(res.ok, 10))
	e.Note("connections_opened", strconv.FormatInt(res.conns, 10))
	e.Note("wall_s", strconv.FormatFloat(res.wall.Seconds(), 'f', 3, 64))
	e.Note("in_flight_at_end", strconv.FormatInt(res.inFlight, 10))
	for k, n := range res.errs {
		if n > 0 {
			e.Note("errors_"+errKindNames[k], strconv.FormatInt(n, 10))
			e.Note("error_"+errKindNames[k]+"_first", res.firstErr[k])
		}
	}
	if len(res.statuses) > 0 {
		var s []string
		for code, n := range res.statuses {
			s = append(s, fmt.Sprintf("%d:%d", code, n))
		}
		sort.Strings(s)
		e.Note("error_statuses", strings.Join(s, " "))
	}
	if res.ok == 0 {
		var kinds []string
		for k, n := range res.errs {
			if n > 0 {
				kinds = append(kinds, fmt.Sprintf("%d %s (first: %s)", n, errKindNames[k], res.firstErr[k]))
			}
		}
		if res.inFlight > 0 {
			kinds = append(kinds, fmt.Sprintf("%d still in flight at the end (timeout %v)", res.inFlight, c.timeout))
		}
		if res.conntrackDrops > 0 {
			kinds = append(kinds, fmt.Sprintf("the host's connection tracking table was full (%d packets dropped)", res.conntrackDrops))
		}
		return fmt.Errorf("no request completed in %v: %s", res.wall.Round(time.Millisecond), strings.Join(kinds, "; "))
	}
	e.Note("body_bytes", strconv.FormatInt(res.bodyLen, 10))
	e.Note("waits_per_request", strconv.FormatFloat(float64(res.waits)/float64(res.ok), 'f', 3, 64))
	e.Note("naps_per_request", strconv.FormatFloat(float64(res.naps)/float64(res.ok), 'f', 3, 64))
	e.Note("latency_min_ms", ms(res.latency.Min()))
	e.Note("latency_max_ms", ms(res.latency.Max()))
	msf := func(d time.Duration) float64 { return float64(d) / 1e6 }
	e.Sample("requests_per_s", float64(res.ok)/res.wall.Seconds())
	e.Sample("latency_mean_ms", msf(res.latency.Mean()))
	e.Sample("latency_p50_ms", msf(res.latency.Quantile(0.50)))
	e.Sample("latency_p90_ms", msf(res.latency.Quantile(0.90)))
	e.Sample("latency_p99_ms", msf(res.latency.Quantile(0.99)))
	e.Sample("errors", float64(errs))
	e.Sample("error_rate_pct", 100*float64(errs)/float64(errs+res.ok))
	return nil
}

func ms(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 3, 64) }

// CheckHost implements workload.HostChecker: a command agent's program
// must be installed.
func (c *config) CheckHost() error {
	if len(c.agent.argv) == 0 {
		return nil
	}
	if c.agent.program() == "" {
		return fmt.Errorf("agent program %s is not installed here (not on PATH)", c.agent.argv[0])
	}
	return nil
}
