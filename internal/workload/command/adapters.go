package command

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/lazyre"
	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/stressng"
)

// An adapter reads the output of one of the tools the seed studies used,
// so `cmd: sysbench cpu run` reports events/s with nothing more said.
type adapter struct {
	name    string
	debian  string // the Debian package that installs the tool
	summary string
	metrics []workload.Metric
	// args adds what the tool needs to print what parse reads (fio's
	// JSON, stress-ng's metrics), unless the user gave it.
	args func(argv []string) []string
	// parse reads the figures; a tool whose output holds none of them is
	// an error naming what was looked for.
	parse func(stdout, stderr []byte) (map[string]float64, error)
	// caps are the capabilities the tool's arguments need (cyclictest's
	// real-time priority, its memory locking).
	caps func(argv []string) []string
	// check refuses arguments whose output the adapter would misread.
	check func(argv []string) error
}

// adapterMetrics are the figures the adapters read, a row each: the
// tool, the metric's name, unit and label, whether higher is better, and
// what it is. An adapter's metrics are its rows, in this order.
var adapterMetrics = []struct {
	tool, name, unit, label string
	higher                  bool
	desc                    string
}{
	{"sysbench", "events_per_s", "events/s", "events/s", true, "sysbench's events per second (cpu: prime searches; threads)"},
	{"sysbench", "mib_per_s", "MiB/s", "MiB/s", true, "sysbench memory: MiB transferred per second"},
	{"sysbench", "reads_per_s", "reads/s", "reads/s", true, "sysbench fileio: reads per second"},
	{"sysbench", "writes_per_s", "writes/s", "writes/s", true, "sysbench fileio: writes per second"},
	{"sysbench", "fsyncs_per_s", "fsyncs/s", "fsyncs/s", true, "sysbench fileio: fsyncs per second"},
	{"sysbench", "read_mib_per_s", "MiB/s", "read MiB/s", true, "sysbench fileio: MiB read per second"},
	{"sysbench", "written_mib_per_s", "MiB/s", "written MiB/s", true, "sysbench fileio: MiB written per second"},
	{"sysbench", "lat_avg_ms", "ms", "latency avg ms", false, "sysbench's average event latency"},
	{"sysbench", "lat_p95_ms", "ms", "latency p95 ms", false, "sysbench's 95th percentile of event latency"},
	{"fio", "read_iops", "IOPS", "read IOPS", true, "fio: read operations per second, all jobs"},
	{"fio", "read_mib_per_s", "MiB/s", "read MiB/s", true, "fio: read bandwidth, all jobs"},
	{"fio", "read_clat_mean_us", "us", "read clat us", false, "fio: mean read completion latency, weighted by I/Os"},
	{"fio", "write_iops", "IOPS", "write IOPS", true, "fio: write operations per second, all jobs"},
	{"fio", "write_mib_per_s", "MiB/s", "write MiB/s", true, "fio: write bandwidth, all jobs"},
	{"fio", "write_clat_mean_us", "us", "write clat us", false, "fio: mean write completion latency, weighted by I/Os"},
	{"stress-ng", "bogo_ops_per_s", "ops/s", "bogo ops/s", true, "stress-ng: bogo operations per second of real time, all stressors summed"},
	{"stress-ng", "bogo_ops_per_cpu_s", "ops/s", "bogo ops/cpu-s", true, "stress-ng: bogo operations per second of user+system CPU time, all stressors"},
	{"cyclictest", "lat_min_us", "us", "latency min us", false, "cyclictest: the smallest wake-up latency of any thread"},
	{"cyclictest", "lat_avg_us", "us", "latency avg us", false, "cyclictest: the mean of the threads' average wake-up latencies"},
	{"cyclictest", "lat_max_us", "us", "latency max us", false, "cyclictest: the largest wake-up latency of any thread"},
	{"iperf3", "received_mbit_per_s", "Mbit/s", "received Mbit/s", true, "iperf3: the receiver's rate, all streams (end.sum_received, UDP end.sum)"},
	{"iperf3", "sent_mbit_per_s", "Mbit/s", "sent Mbit/s", true, "iperf3: the sender's rate, all streams (end.sum_sent)"},
	{"iperf3", "jitter_ms", "ms", "jitter ms", false, "iperf3 UDP: jitter (end.sum.jitter_ms)"},
	{"iperf3", "lost_pct", "%", "lost %", false, "iperf3 UDP: datagrams lost (end.sum.lost_percent)"},
	{"ab", "requests_per_s", "req/s", "req/s", true, "ab: Requests per second (mean)"},
	{"ab", "time_per_request_ms", "ms", "ms/request", false, "ab: Time per request (mean), one client's view"},
	{"ab", "failed_requests", "requests", "failed", false, "ab: Failed requests"},
	{"wrk", "requests_per_s", "req/s", "req/s", true, "wrk: Requests/sec"},
	{"wrk", "latency_avg_ms", "ms", "latency ms", false, "wrk: the mean latency of the threads"},
	{"mbw", "memcpy_mib_per_s", "MiB/s", "memcpy MiB/s", true, "mbw: memcpy() copy rate"},
	{"mbw", "dumb_mib_per_s", "MiB/s", "dumb MiB/s", true, "mbw: element-by-element copy rate"},
	{"mbw", "mcblock_mib_per_s", "MiB/s", "mcblock MiB/s", true, "mbw: memcpy() in blocks copy rate"},
}

// adapters are the tools with an adapter, by name: the Debian package
// that installs each, what it prints and how that is read; their metrics
// come from adapterMetrics.
var adapters = adapterTable([]adapter{
	{name: "sysbench", debian: "sysbench", summary: "sysbench cpu, memory, fileio and threads: its text report", parse: parseSysbench},
	{name: "fio", debian: "fio", summary: "fio --output-format=json (added when not given): every job summed", parse: parseFio,
		args: addUnless("--output-format=json", func(a string) bool { return strings.HasPrefix(a, "--output-format") })},
	{name: "stress-ng", debian: "stress-ng", summary: "stress-ng with --metrics-brief (added when not given): bogo ops per second, all stressors", parse: parseStressNG,
		args: addUnless("--metrics-brief", func(a string) bool { return strings.HasPrefix(a, "--metrics") || a == "-M" })},
	{name: "cyclictest", debian: "rt-tests", summary: "cyclictest: its per-thread Min/Avg/Max wake-up latencies (use -q and -l or -D)", parse: parseCyclictest,
		check: checkCyclictest, caps: cyclictestCaps},
	{name: "iperf3", debian: "iperf3", summary: "iperf3 -J (added when not given): received and sent rate; UDP jitter and loss", parse: parseIperf3,
		args: addUnless("-J", func(a string) bool { return a == "-J" || a == "--json" })},
	{name: "ab", debian: "apache2-utils", summary: "ApacheBench: requests per second, time per request, failed requests", parse: parseAb},
	{name: "wrk", debian: "wrk", summary: "wrk: requests per second and mean latency", parse: parseWrk},
	{name: "mbw", debian: "mbw", summary: "mbw: the AVG line of each method", parse: parseMbw},
})

// adapterTable indexes the adapters by name and gives each its rows of
// adapterMetrics; a row naming no adapter is a mistake caught at start.
func adapterTable(list []adapter) map[string]adapter {
	out := map[string]adapter{}
	for _, a := range list {
		out[a.name] = a
	}
	for _, r := range adapterMetrics {
		a, ok := out[r.tool]
		if !ok {
			panic("adapterMetrics: no adapter " + r.tool)
		}
		a.metrics = append(a.metrics, workload.Metric{Name: r.name, Unit: r.unit, Label: r.label, HigherIsBetter: r.higher, Description: r.desc})
		out[r.tool] = a
	}
	return out
}

// checkCyclictest refuses -N: the adapter reads microseconds.
func checkCyclictest(argv []string) error {
	for _, a := range argv {
		if a == "-N" || a == "--nsecs" {
			return fmt.Errorf("parameter cmd: cyclictest -N prints nanoseconds; the adapter reads microseconds: leave -N out")
		}
	}
	return nil
}

// cyclictestCaps are what cyclictest's arguments need: SYS_NICE for a
// real-time priority, IPC_LOCK for locked memory.
func cyclictestCaps(argv []string) []string {
	var caps []string
	for _, a := range argv {
		switch {
		case a == "-p" || strings.HasPrefix(a, "-p") || strings.HasPrefix(a, "--priority") || strings.HasPrefix(a, "--prio"):
			caps = append(caps, "SYS_NICE")
		case a == "-m" || a == "--mlockall":
			caps = append(caps, "IPC_LOCK")
		}
	}
	slices.Sort(caps)
	return slices.Compact(caps)
}

// addUnless is an adapter's args: it adds flag unless an argument given
// says the same already.
func addUnless(flag string, given func(arg string) bool) func(argv []string) []string {
	return func(argv []string) []string {
		if slices.ContainsFunc(argv, given) {
			return argv
		}
		return append(argv, flag)
	}
}

// AdapterNames lists the tools with an adapter.
func AdapterNames() []string {
	var out []string
	for n := range adapters {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// adapterFor is the adapter parse names: "auto" picks it by the program's
// name, "none" none.
func adapterFor(parse string, argv []string) (*adapter, error) {
	switch parse {
	case "none":
		return nil, nil
	case "auto", "":
		if len(argv) == 0 {
			return nil, nil
		}
		if a, ok := adapters[filepath.Base(argv[0])]; ok {
			return &a, nil
		}
		return nil, nil
	}
	a, ok := adapters[parse]
	if !ok {
		return nil, fmt.Errorf("parameter parse: unknown tool %q; valid: auto, none, %s", parse, strings.Join(AdapterNames(), ", "))
	}
	return &a, nil
}

var (
	sbEvents  = lazyre.New(`events per second:\s*([0-9.]+)`)
	sbMemory  = lazyre.New(`(?:MiB|MB) transferred \(([0-9.]+) (?:MiB|MB)/sec\)`) // 1.0: MiB; 0.4: MB, which are MiB too
	sbFileio  = lazyre.New(`(?m)^\s*(reads/s|writes/s|fsyncs/s|read, MiB/s|written, MiB/s):\s*([0-9.]+)`)
	sbLatAvg  = lazyre.New(`(?m)^\s*avg:\s*([0-9.]+)`)
	sbLatP95  = lazyre.New(`(?m)^\s*95th percentile:\s*([0-9.]+)`)
	sbThreads = lazyre.New(`total number of events:\s*([0-9]+)`)
	sbTime    = lazyre.New(`total time:\s*([0-9.]+)s`)
)

func parseSysbench(stdout, _ []byte) (map[string]float64, error) {
	out := map[string]float64{}
	num := func(b []byte) float64 { v, _ := strconv.ParseFloat(string(b), 64); return v }
	if mt := sbEvents.Get().FindSubmatch(stdout); mt != nil {
		out["events_per_s"] = num(mt[1])
	}
	if mt := sbMemory.Get().FindSubmatch(stdout); mt != nil {
		out["mib_per_s"] = num(mt[1])
	}
	names := map[string]string{"reads/s": "reads_per_s", "writes/s": "writes_per_s", "fsyncs/s": "fsyncs_per_s",
		"read, MiB/s": "read_mib_per_s", "written, MiB/s": "written_mib_per_s"}
	for _, mt := range sbFileio.Get().FindAllSubmatch(stdout, -1) {
		out[names[string(mt[1])]] = num(mt[2])
	}
	if len(out) == 0 {
		// sysbench threads and mutex print no rate: events over time.
		ev, tm := sbThreads.Get().FindSubmatch(stdout), sbTime.Get().FindSubmatch(stdout)
		if ev != nil && tm != nil && num(tm[1]) > 0 {
			out["events_per_s"] = num(ev[1]) / num(tm[1])
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("sysbench printed none of its figures (events per second, MiB/sec, reads/s...): did the test run? (fileio needs its files: add setup: sysbench fileio ... prepare)")
	}
	if mt := sbLatAvg.Get().FindSubmatch(stdout); mt != nil {
		out["lat_avg_ms"] = num(mt[1])
	}
	if mt := sbLatP95.Get().FindSubmatch(stdout); mt != nil {
		out["lat_p95_ms"] = num(mt[1])
	}
	return out, nil
}

// decodeReport decodes into v the JSON report tool printed, skipping what
// it printed before; flag is what makes the tool print it.
func decodeReport(stdout []byte, v any, tool, flag string) error {
	i := bytes.IndexByte(stdout, '{')
	if i < 0 {
		return fmt.Errorf("%s printed no JSON report (is %s among its arguments?)", tool, flag)
	}
	if err := json.NewDecoder(bytes.NewReader(stdout[i:])).Decode(v); err != nil {
		return fmt.Errorf("%s's JSON report: %v", tool, err)
	}
	return nil
}

// fioReport is the part of fio's JSON report the adapter reads.
type fioReport struct {
	Jobs []struct {
		GroupID int    `json:"groupid"`
		Read    fioDir `json:"read"`
		Write   fioDir `json:"write"`
	} `json:"jobs"`
}

type fioDir struct {
	IOBytes int64   `json:"io_bytes"`
	BW      float64 `json:"bw_bytes"` // bytes/s
	IOPS    float64 `json:"iops"`
	TotalIO int64   `json:"total_ios"`
	Clat    struct {
		Mean float64 `json:"mean"` // ns
	} `json:"clat_ns"`
}

func parseFio(stdout, _ []byte) (map[string]float64, error) {
	var r fioReport
	if err := decodeReport(stdout, &r, "fio", "--output-format=json"); err != nil {
		return nil, err
	}
	if len(r.Jobs) == 0 {
		return nil, fmt.Errorf("fio's JSON report has no jobs")
	}
	out := map[string]float64{}
	for _, dir := range []string{"read", "write"} {
		var bw, iops, latSum float64
		var ios int64
		var bytesDone int64
		groups := map[int]bool{}
		for _, j := range r.Jobs {
			d := j.Read
			if dir == "write" {
				d = j.Write
			}
			if d.IOBytes > 0 {
				groups[j.GroupID] = true
				if d.BW == 0 {
					return nil, fmt.Errorf("fio's JSON report has no bw_bytes: this fio is older than 3.0; read its figures with --metric NAME=json:PATH")
				}
			}
			bytesDone += d.IOBytes
			bw += d.BW
			iops += d.IOPS
			latSum += d.Clat.Mean * float64(d.TotalIO)
			ios += d.TotalIO
		}
		if bytesDone == 0 {
			continue
		}
		if len(groups) > 1 {
			// stonewalled groups ran one after another: their sum is a
			// rate no moment had
			return nil, fmt.Errorf("fio ran %d groups of jobs that %s one after another (stonewall); the adapter sums the jobs of one group: read each group's figures with --metric NAME=json:.jobs[N].%s.bw_bytes", len(groups), map[string]string{"read": "read", "write": "wrote"}[dir], dir)
		}
		out[dir+"_iops"] = iops
		out[dir+"_mib_per_s"] = bw / (1 << 20)
		if ios > 0 {
			out[dir+"_clat_mean_us"] = latSum / float64(ios) / 1000
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("fio's jobs read and wrote nothing")
	}
	return out, nil
}

// parseStressNG sums the stressors' lines of --metrics(-brief)
// (stressng.ParseMetrics), on stderr or else on stdout.
func parseStressNG(stdout, stderr []byte) (map[string]float64, error) {
	var real, cpu float64
	n := 0
	for _, out := range [][]byte{stderr, stdout} {
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			if m, ok := stressng.ParseMetrics(sc.Text()); ok {
				real, cpu, n = real+m.BogoOpsPerS, cpu+m.BogoOpsPerCPUS, n+1
			}
		}
		if n > 0 {
			break
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("stress-ng printed no metrics line (stress-ng: metrc: [pid] stressor ops real usr sys ops/s ops/s)")
	}
	return map[string]float64{"bogo_ops_per_s": real, "bogo_ops_per_cpu_s": cpu}, nil
}

var ctLine = lazyre.New(`T:\s*(\d+)\s.*?Min:\s*(\d+)\s+Act:\s*\d+\s+Avg:\s*(\d+)\s+Max:\s*(\d+)`)

// parseCyclictest reads the last line of each thread
// "T: 0 ( 1234) P:80 I:1000 C:  1000 Min:  3 Act:  5 Avg:  4 Max:  20".
func parseCyclictest(stdout, _ []byte) (map[string]float64, error) {
	last := map[string][]float64{}
	for _, line := range strings.Split(string(stdout), "\n") {
		mt := ctLine.Get().FindStringSubmatch(line)
		if mt == nil {
			continue
		}
		thread := mt[1]
		var v []float64
		for _, s := range mt[2:] {
			x, _ := strconv.ParseFloat(s, 64)
			v = append(v, x)
		}
		last[thread] = v
	}
	if len(last) == 0 {
		return nil, fmt.Errorf("cyclictest printed no thread line (T: n ... Min: Avg: Max:); give it -q (not -h) and a loop count (-l) or duration (-D)")
	}
	minV, maxV, sum := last[firstKey(last)][0], 0.0, 0.0
	for _, v := range last {
		minV, maxV, sum = min(minV, v[0]), max(maxV, v[2]), sum+v[1]
	}
	return map[string]float64{"lat_min_us": minV, "lat_avg_us": sum / float64(len(last)), "lat_max_us": maxV}, nil
}

func firstKey(m map[string][]float64) string {
	for k := range m {
		return k
	}
	return ""
}

var mbwAvg = lazyre.New(`(?m)^AVG\s+Method:\s+(\w+)\s+Elapsed:\s*[0-9.]+\s+MiB:\s*[0-9.]+\s+Copy:\s*([0-9.]+)\s*MiB/s`)

func parseMbw(stdout, _ []byte) (map[string]float64, error) {
	out := map[string]float64{}
	for _, mt := range mbwAvg.Get().FindAllSubmatch(stdout, -1) {
		v, err := strconv.ParseFloat(string(mt[2]), 64)
		if err == nil {
			out[strings.ToLower(string(mt[1]))+"_mib_per_s"] = v
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("mbw printed no AVG line")
	}
	return out, nil
}

// iperf3Report is the part of iperf3's JSON report the adapter reads.
type iperf3Report struct {
	Error string `json:"error"`
	End   struct {
		Sum *struct {
			BPS         float64 `json:"bits_per_second"`
			JitterMs    float64 `json:"jitter_ms"`
			LostPercent float64 `json:"lost_percent"`
		} `json:"sum"`
		Sent *struct {
			BPS float64 `json:"bits_per_second"`
		} `json:"sum_sent"`
		Received *struct {
			BPS float64 `json:"bits_per_second"`
		} `json:"sum_received"`
	} `json:"end"`
}

func parseIperf3(stdout, _ []byte) (map[string]float64, error) {
	var r iperf3Report
	if err := decodeReport(stdout, &r, "iperf3", "-J"); err != nil {
		return nil, err
	}
	if r.Error != "" {
		return nil, fmt.Errorf("iperf3: %s", r.Error)
	}
	out := map[string]float64{}
	if r.End.Sent != nil {
		out["sent_mbit_per_s"] = r.End.Sent.BPS / 1e6
	}
	if r.End.Received != nil {
		out["received_mbit_per_s"] = r.End.Received.BPS / 1e6
	}
	if r.End.Sum != nil { // UDP: jitter and loss; its rate is the sender's
		if r.End.Received == nil {
			// iperf3 before 3.12 has no sum_received for UDP: the
			// delivered share of what was sent.
			out["received_mbit_per_s"] = r.End.Sum.BPS * (1 - r.End.Sum.LostPercent/100) / 1e6
		}
		out["jitter_ms"] = r.End.Sum.JitterMs
		out["lost_pct"] = r.End.Sum.LostPercent
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("iperf3's JSON report has no end summary")
	}
	return out, nil
}

var (
	abRate   = lazyre.New(`Requests per second:\s*([0-9.]+)`)
	abTime   = lazyre.New(`Time per request:\s*([0-9.]+) \[ms\] \(mean\)\n`)
	abFailed = lazyre.New(`Failed requests:\s*([0-9]+)`)
)

func parseAb(stdout, _ []byte) (map[string]float64, error) {
	out := map[string]float64{}
	for name, re := range map[string]*lazyre.Regexp{"requests_per_s": abRate, "time_per_request_ms": abTime, "failed_requests": abFailed} {
		if mt := re.Get().FindSubmatch(stdout); mt != nil {
			v, _ := strconv.ParseFloat(string(mt[1]), 64)
			out[name] = v
		}
	}
	if _, ok := out["requests_per_s"]; !ok {
		return nil, fmt.Errorf("ab printed no Requests per second line")
	}
	return out, nil
}

var (
	wrkRate    = lazyre.New(`Requests/sec:\s*([0-9.]+)`)
	wrkLatency = lazyre.New(`(?m)^\s*Latency\s+([0-9.]+)(us|ms|s)\b`)
)

func parseWrk(stdout, _ []byte) (map[string]float64, error) {
	mt := wrkRate.Get().FindSubmatch(stdout)
	if mt == nil {
		return nil, fmt.Errorf("wrk printed no Requests/sec line")
	}
	out := map[string]float64{}
	out["requests_per_s"], _ = strconv.ParseFloat(string(mt[1]), 64)
	if l := wrkLatency.Get().FindSubmatch(stdout); l != nil {
		v, _ := strconv.ParseFloat(string(l[1]), 64)
		out["latency_avg_ms"] = v * map[string]float64{"us": 1e-3, "ms": 1, "s": 1e3}[string(l[2])]
	}
	return out, nil
}
