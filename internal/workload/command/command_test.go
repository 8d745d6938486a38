package command

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"sysbench cpu --time=5 run", []string{"sysbench", "cpu", "--time=5", "run"}},
		{`sh -c 'echo "a b" | wc -c'`, []string{"sh", "-c", `echo "a b" | wc -c`}},
		{`printf "%s\n" "x \"y\" \$z"`, []string{"printf", `%s\n`, `x "y" $z`}},
		{`a\ b  c`, []string{"a b", "c"}},
		{`x '' y`, []string{"x", "", "y"}},
		{"  ", nil},
	} {
		got, err := Split(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
		if len(tc.want) > 0 {
			back, err := Split(Join(got))
			if err != nil || !reflect.DeepEqual(back, got) {
				t.Errorf("Split(Join(%q)) = %q, %v", got, back, err)
			}
		}
	}
	for _, bad := range []string{`echo 'unclosed`, `echo "unclosed`, `echo \`} {
		if _, err := Split(bad); err == nil {
			t.Errorf("Split(%q) accepted", bad)
		}
	}
}

func TestParseExtract(t *testing.T) {
	e, err := ParseExtract(`events/s=events per second:\s*([0-9.]+)`)
	if err != nil {
		t.Fatal(err)
	}
	if e.Name != "events_per_s" || e.Unit != "events/s" || !e.HigherIsBetter || e.Metric().Label != "events/s" {
		t.Errorf("events/s: %+v, label %q", e, e.Metric().Label)
	}
	e, err = ParseExtract(`p99_ms=json:.latency.p99`)
	if err != nil || e.HigherIsBetter || e.JSON != ".latency.p99" {
		t.Errorf("p99_ms: %+v %v: want lower-is-better JSON", e, err)
	}
	e, err = ParseExtract(`frames:fps:higher=([0-9]+) frames`)
	if err != nil || e.Unit != "fps" || !e.HigherIsBetter {
		t.Errorf("frames: %+v %v", e, err)
	}
	e, err = ParseExtract(`cost:lower=cost ([0-9]+)`)
	if err != nil || e.HigherIsBetter {
		t.Errorf("cost:lower: %+v %v", e, err)
	}
	for bad, why := range map[string]string{
		"events_per_s":         "want NAME",
		"x=(":                  "regex",
		"x=(a)(b)":             "groups",
		"wall_s=([0-9]+)":      "measures wall_s itself",
		"x=json:.a[":           "unclosed",
		"x:a:b=1":              "two units",
		"9lives=([0-9]+) live": "use letters",
	} {
		if _, err := ParseExtract(bad); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("ParseExtract(%q) = %v, want an error about %q", bad, err, why)
		}
	}
}

func TestExtractValue(t *testing.T) {
	out := []byte("round 1: 10.5 ops\nround 2: 12.25 ops\n")
	e, _ := ParseExtract(`ops=([0-9.]+) ops`)
	if v, err := e.value(out, nil); err != nil || v != 12.25 {
		t.Errorf("last match: %v %v, want 12.25", v, err)
	}
	if _, err := e.value([]byte("nothing here"), []byte("nor here")); err == nil || !strings.Contains(err.Error(), "matches nothing") {
		t.Errorf("no match: %v", err)
	}
	e, _ = ParseExtract(`ops=ops: (\w+)`)
	if _, err := e.value([]byte("ops: many"), nil); err == nil || !strings.Contains(err.Error(), "not a number") {
		t.Errorf("not a number: %v", err)
	}
	doc := []byte("fio-3.33 starting\n{\"jobs\":[{\"read\":{\"iops\":1234.5}}],\"v\":\"7\"}\n")
	for path, want := range map[string]float64{".jobs[0].read.iops": 1234.5, "jobs.0.read.iops": 1234.5, ".v": 7} {
		e, err := ParseExtract("x=json:" + path)
		if err != nil {
			t.Fatal(err)
		}
		if v, err := e.value(doc, nil); err != nil || v != want {
			t.Errorf("%s: %v %v, want %v", path, v, err, want)
		}
	}
	for path, why := range map[string]string{".jobs[1].read.iops": "has 1 elements", ".jobs[0].write": "no key", ".jobs.x": ".jobs is not an object", ".jobs[0].read": "not a number"} {
		e, _ := ParseExtract("x=json:" + path)
		if _, err := e.value(doc, nil); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: %v, want %q", path, err, why)
		}
	}
	e, _ = ParseExtract("x=json:.end.bytes")
	if v, err := e.value([]byte("[ ID] Interval  Transfer\n[  5] 0.00-1.00 sec\n{\"end\": {\"bytes\": 42}}\n"), nil); err != nil || v != 42 {
		t.Errorf("JSON after lines starting with [: %v %v", v, err)
	}
	e, _ = ParseExtract("x=json:.a")
	if _, err := e.value([]byte("no json"), nil); err == nil || !strings.Contains(err.Error(), "no JSON") {
		t.Errorf("no JSON: %v", err)
	}
}

func run(t *testing.T, p workload.Params) (*workloadtest.Recorder, error) {
	t.Helper()
	var rec workloadtest.Recorder
	err := workload.Run(context.Background(), Cmd, workloadtest.Prepare(t, Cmd, p), workload.Env{ScratchDir: t.TempDir()}, &rec)
	return &rec, err
}

func TestNormalizeFindsTheProgram(t *testing.T) {
	p := workloadtest.Prepare(t, Cmd, workload.Params{"cmd": "sh -c 'exit 0'", "files": []any{"."}})
	argv, _ := argvParam(p, "cmd")
	if !filepath.IsAbs(argv[0]) || filepath.Base(argv[0]) != "sh" || argv[2] != "exit 0" {
		t.Errorf("normalized cmd %q", argv)
	}
	again := workloadtest.Prepare(t, Cmd, p)
	if !reflect.DeepEqual(again, p) {
		t.Errorf("Normalize is not idempotent: %v then %v", p, again)
	}
	req := workloadtest.Requirements(t, Cmd, p)
	if !reflect.DeepEqual(req.HostPrograms, []string{argv[0]}) || len(req.HostFiles) != 1 || !filepath.IsAbs(req.HostFiles[0]) || len(req.CapAdd) != 0 {
		t.Errorf("requirements %+v", req)
	}
	for p, why := range map[string]workload.Params{
		"no command given":    {"cmd": ""},
		"unclosed quote":      {"cmd": "sh -c 'x"},
		"not a capability":    {"cmd": "true", "cap_add": []any{"SYS_ADMIN"}},
		"unknown tool":        {"cmd": "true", "parse": "iozone"},
		"must be positive":    {"cmd": "true", "timeout": "0s"},
		"unknown parameter":   {"cmd": "true", "imag": "x"},
		"give exactly one of": {"cmd": "true", "metrics": []any{map[string]any{"name": "x"}}},
	} {
		if _, _, err := workload.Prepare(Cmd, why); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%v: %v, want %q", why, err, p)
		}
	}
}

func TestCheckHost(t *testing.T) {
	for why, p := range map[string]workload.Params{
		"no such file":    {"cmd": "true", "files": []any{"/nonexistent/boxtax"}},
		"no such file or": {"cmd": "/nonexistent/boxtax-program"},
	} {
		if err := workload.CheckHost(Cmd, workloadtest.Prepare(t, Cmd, p)); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%v: %v, want %q", p, err, why)
		}
	}
	if err := workload.CheckHost(Cmd, workloadtest.Prepare(t, Cmd, workload.Params{"cmd": "/nonexistent/boxtax-program", "image": "my-app:1"})); err != nil {
		t.Errorf("the image's program is not the host's to have: %v", err)
	}
}

func TestBackgroundChildrenDoNotCount(t *testing.T) {
	// The program exits at once; its background child holds stdout for 3 s.
	rec, err := run(t, workload.Params{"cmd": []any{"sh", "-c", "sleep 3 & echo done"}})
	if err != nil {
		t.Fatal(err)
	}
	if w := rec.One(t, "wall_s"); w > 1.5 {
		t.Errorf("wall %v s: the background child's time counted", w)
	}
}

func TestRunMeasuresTheProgram(t *testing.T) {
	requireTool(t, "python3", "python3")
	// 64 MiB touched and a little CPU: rusage sees both.
	rec, err := run(t, workload.Params{
		"cmd":     []any{"python3", "-c", "b = bytearray(64 << 20)\nfor i in range(0, len(b), 4096): b[i] = 1\ns = sum(range(3000000))\nprint('result', s)"},
		"metrics": []any{`result=result ([0-9]+)`},
	})
	if err != nil {
		t.Fatal(err)
	}
	if v := rec.One(t, "maxrss_mib"); v < 64 || v > 200 {
		t.Errorf("peak RSS %.1f MiB, want 64 MiB or a little more", v)
	}
	if u, w := rec.One(t, "user_s"), rec.One(t, "wall_s"); u <= 0 || w < u/2 {
		t.Errorf("user %v s, wall %v s", u, w)
	}
	if v := rec.One(t, "result"); v != 4499998500000 {
		t.Errorf("result %v", v)
	}
	if !strings.Contains(rec.Notes["command"], "python3") {
		t.Errorf("notes %v", rec.Notes)
	}
}

func TestRunFailures(t *testing.T) {
	_, err := run(t, workload.Params{"cmd": []any{"sh", "-c", "echo starting; echo broken pipe >&2; exit 3"}})
	if err == nil || !strings.Contains(err.Error(), "exited with status 3") || !strings.Contains(err.Error(), "broken pipe") {
		t.Errorf("exit 3: %v", err)
	}
	start := time.Now()
	// The child of the shell sleeps too: the whole group is stopped.
	_, err = run(t, workload.Params{"cmd": []any{"sh", "-c", "sleep 30 & sleep 30; wait"}, "timeout": "500ms"})
	if err == nil || !strings.Contains(err.Error(), "did not end within its timeout of 500ms") || time.Since(start) > 10*time.Second {
		t.Errorf("hang: %v after %v", err, time.Since(start))
	}
	_, err = run(t, workload.Params{"cmd": []any{"head", "-c", "3000000", "/dev/zero"}, "max_output": "1MiB"})
	if err == nil || !strings.Contains(err.Error(), "printed more than 1048576 bytes") {
		t.Errorf("too much output: %v", err)
	}
	_, err = run(t, workload.Params{"cmd": "echo 12 ops", "metrics": []any{"fps=([0-9]+) frames"}})
	if err == nil || !strings.Contains(err.Error(), "matches nothing") || !strings.Contains(err.Error(), "12 ops") {
		t.Errorf("regex without a match: %v", err)
	}
	_, err = run(t, workload.Params{"cmd": "echo {}", "metrics": []any{"x=json:.a.b"}})
	if err == nil || !strings.Contains(err.Error(), `no key "a"`) {
		t.Errorf("absent JSON path: %v", err)
	}
	rec, err := run(t, workload.Params{"cmd": []any{"sh", "-c", "mkdir -p x && echo made > x/f && cat x/f && pwd"}, "setup": "touch ready"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rec.Samples["wall_s"]; !ok {
		t.Errorf("samples %v", rec.Samples)
	}
	_, err = run(t, workload.Params{"cmd": "true", "setup": "false"})
	if err == nil || !strings.Contains(err.Error(), "the setup command exited with status 1") {
		t.Errorf("failing setup: %v", err)
	}
}

// TestFailureQuotesTheFirstErrorToo: issue 25 item 19, a failing
// program's reason kept only its last 5 lines (600 bytes), so the first
// error, the one that says why, was lost behind what followed it.
func TestFailureQuotesTheFirstErrorToo(t *testing.T) {
	script := "echo 'error: cannot open /etc/app.conf' >&2; i=0; while [ $i -lt 200 ]; do echo \"cleanup step $i of 200\" >&2; i=$((i+1)); done; echo 'giving up' >&2; exit 4"
	_, err := run(t, workload.Params{"cmd": []any{"sh", "-c", script}})
	if err == nil {
		t.Fatal("the program failed but the run did not")
	}
	msg := err.Error()
	for _, want := range []string{"exited with status 4", "error: cannot open /etc/app.conf", "giving up", "bytes left out"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the reason does not keep %q:\n%s", want, msg)
		}
	}
	if len(msg) > outputQuoted+200 {
		t.Errorf("the reason is %d bytes, want about %d", len(msg), outputQuoted)
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("the reason is not one line:\n%s", msg)
	}
}

func TestCtlCancelStopsTheProgram(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	var rec workloadtest.Recorder
	err := workload.Run(ctx, Cmd, workloadtest.Prepare(t, Cmd, workload.Params{"cmd": "sleep 30"}), workload.Env{ScratchDir: t.TempDir()}, &rec)
	if err == nil || time.Since(start) > 6*time.Second {
		t.Errorf("cancel: %v after %v", err, time.Since(start))
	}
}

func TestMetricsFor(t *testing.T) {
	names := func(ms []workload.Metric) (out []string) {
		for _, m := range ms {
			if !m.Secondary {
				out = append(out, m.Name)
			}
		}
		return out
	}
	p := workloadtest.Prepare(t, Cmd, workload.Params{"cmd": "true"})
	if got := names(Cmd.MetricsFor(p)); !reflect.DeepEqual(got, []string{"wall_s", "user_s", "sys_s", "maxrss_mib"}) {
		t.Errorf("plain command: primary metrics %v", got)
	}
	p = workloadtest.Prepare(t, Cmd, workload.Params{"cmd": "true", "metrics": []any{"fps=([0-9]+)"}})
	// issue 27: the measured rows stay in the table beside the figures
	if got := names(Cmd.MetricsFor(p)); !reflect.DeepEqual(got, []string{"wall_s", "user_s", "sys_s", "maxrss_mib", "fps"}) {
		t.Errorf("with a figure: primary metrics %v", got)
	}
	if m, ok := workload.MetricOf("cmd", p, "fps"); !ok || !m.HigherIsBetter {
		t.Errorf("MetricOf fps: %+v %v", m, ok)
	}
	p = workloadtest.Prepare(t, Cmd, workload.Params{"cmd": "sysbench cpu run", "metrics": []any{`events/s=events per second:\s*([0-9.]+)`}})
	got := names(Cmd.MetricsFor(p))
	if !reflect.DeepEqual(got[:4], []string{"wall_s", "user_s", "sys_s", "maxrss_mib"}) || got[len(got)-1] != "events_per_s" || slices.Index(got, "events_per_s") != len(got)-1 {
		t.Errorf("a figure named as the adapter's: metrics %v, want the user's events_per_s once, last", got)
	}
	noter, _ := workload.As[workload.Noter](Cmd, p)
	if notes := noter.Notes(); len(notes) != 1 || !strings.Contains(notes[0], "events_per_s is yours (regex events per second") || !strings.Contains(notes[0], "sysbench adapter's") {
		t.Errorf("notes %q", notes)
	}
}

// requireTool skips without the program, except in CI, which installs it.
func requireTool(t *testing.T, name, pkg string) {
	t.Helper()
	if _, err := findProgram(name); err != nil {
		testenv.Missing(t, "%s is not installed (Debian: apt-get install %s)", name, pkg)
	}
}

// TestAdaptersReadTheRealTools runs each tool briefly and reads its figures.
func TestAdaptersReadTheRealTools(t *testing.T) {
	for _, tc := range []struct {
		tool, pkg, cmd, setup string
		want                  []string
	}{
		{"sysbench", "sysbench", "sysbench cpu --time=1 run", "", []string{"events_per_s", "lat_avg_ms", "lat_p95_ms"}},
		{"sysbench", "sysbench", "sysbench memory --time=1 --memory-total-size=256M run", "", []string{"mib_per_s"}},
		{"sysbench", "sysbench", "sysbench fileio --file-total-size=8M --file-num=2 --file-test-mode=rndrw --time=1 run",
			"sysbench fileio --file-total-size=8M --file-num=2 prepare", []string{"reads_per_s", "writes_per_s", "read_mib_per_s", "written_mib_per_s"}},
		{"fio", "fio", "fio --name=t --rw=randrw --size=4M --bs=4k --ioengine=psync --runtime=1 --time_based", "", []string{"read_iops", "read_mib_per_s", "read_clat_mean_us", "write_iops", "write_mib_per_s"}},
		{"stress-ng", "stress-ng", "stress-ng --cpu 1 --timeout 1", "", []string{"bogo_ops_per_s", "bogo_ops_per_cpu_s"}},
		{"cyclictest", "rt-tests", "cyclictest -q -l 200 -i 1000 -t 2", "", []string{"lat_min_us", "lat_avg_us", "lat_max_us"}},
		{"mbw", "mbw", "mbw -n 2 8", "", []string{"memcpy_mib_per_s", "dumb_mib_per_s", "mcblock_mib_per_s"}},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			requireTool(t, tc.tool, tc.pkg)
			rec, err := run(t, workload.Params{"cmd": tc.cmd, "setup": tc.setup})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range tc.want {
				if v := rec.One(t, m); v <= 0 && m != "lat_min_us" {
					t.Errorf("%s = %v", m, v)
				}
			}
			if rec.Notes["parse"] != tc.tool {
				t.Errorf("parse note %q", rec.Notes["parse"])
			}
			t.Logf("%s: %v", tc.cmd, rec.Samples)
		})
	}
}

func TestScriptsBringTheirInterpreter(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "app.sh")
	testenv.WriteFile(t, script, []byte("#!/bin/sh\necho 3 frames\n"), 0o755)
	req := workloadtest.Requirements(t, Cmd, workloadtest.Prepare(t, Cmd, workload.Params{"cmd": script + " --once"}))
	if !reflect.DeepEqual(req.HostPrograms, []string{"/bin/sh"}) || !reflect.DeepEqual(req.HostFiles, []string{script}) {
		t.Errorf("a #!/bin/sh script: %+v", req)
	}
	rec, err := run(t, workload.Params{"cmd": script, "metrics": []any{"frames=([0-9]+) frames"}})
	if err != nil || rec.One(t, "frames") != 3 {
		t.Errorf("running it: %v %v", err, rec)
	}
}

func TestCyclictestAsksForWhatItNeeds(t *testing.T) {
	p := workloadtest.Prepare(t, Cmd, workload.Params{"cmd": "/bin/true -m -p 80", "parse": "cyclictest"})
	req := workloadtest.Requirements(t, Cmd, p)
	if !reflect.DeepEqual(req.CapAdd, []string{"IPC_LOCK", "SYS_NICE"}) || req.CPURealtimeRuntimeUs == 0 {
		t.Errorf("requirements %+v", req)
	}
	p = workloadtest.Prepare(t, Cmd, workload.Params{"cmd": "/bin/true -q", "parse": "cyclictest"})
	if req := workloadtest.Requirements(t, Cmd, p); len(req.CapAdd) != 0 {
		t.Errorf("no priority, no locking: %+v", req)
	}
}

func TestAdapterErrors(t *testing.T) {
	for tool, out := range map[string]string{
		"sysbench": "FATAL: Cannot open file\n", "fio": "fio: no jobs\n", "stress-ng": "stress-ng: info: dispatching\n",
		"cyclictest": "# /dev/cpu_dma_latency set to 0us\n", "mbw": "Long uses 8 bytes.\n",
	} {
		a := adapters[tool]
		if _, err := a.parse([]byte(out), []byte(out)); err == nil {
			t.Errorf("%s accepted %q", tool, out)
		}
	}
}

func TestAdapterEdgeCases(t *testing.T) {
	// cyclictest: thread 10 and up print "T:10 (   42)"; each thread's last line counts.
	ct := "T: 0 (  41) P:80 I:1000 C:    100 Min:      3 Act:    5 Avg:    4 Max:      20\n" +
		"T:10 (  42) P:80 I:1000 C:    100 Min:      7 Act:    5 Avg:    8 Max:      90\n" +
		"T:11 (  43) P:80 I:1000 C:    100 Min:      2 Act:    5 Avg:    6 Max:      30\n"
	v, err := parseCyclictest([]byte(ct), nil)
	if err != nil || v["lat_min_us"] != 2 || v["lat_max_us"] != 90 || v["lat_avg_us"] != 6 {
		t.Errorf("cyclictest: %v %v", v, err)
	}
	if _, _, err := workload.Prepare(Cmd, workload.Params{"cmd": "/bin/true -N -q", "parse": "cyclictest"}); err == nil || !strings.Contains(err.Error(), "nanoseconds") {
		t.Errorf("cyclictest -N: %v", err)
	}
	// fio: two stonewalled groups writing one after another are not one rate.
	two := `{"jobs":[{"groupid":0,"write":{"io_bytes":1048576,"bw_bytes":524288000,"iops":500,"total_ios":1,"clat_ns":{"mean":1000}},"read":{"io_bytes":0}},
	{"groupid":1,"write":{"io_bytes":1048576,"bw_bytes":349175808,"iops":333,"total_ios":1,"clat_ns":{"mean":2000}},"read":{"io_bytes":0}}]}`
	if _, err := parseFio([]byte(two), nil); err == nil || !strings.Contains(err.Error(), "2 groups") {
		t.Errorf("fio groups: %v", err)
	}
	old := `{"jobs":[{"groupid":0,"write":{"io_bytes":1048576,"bw":512000,"iops":500},"read":{"io_bytes":0}}]}`
	if _, err := parseFio([]byte(old), nil); err == nil || !strings.Contains(err.Error(), "older than 3.0") {
		t.Errorf("fio 2.x: %v", err)
	}
	// iperf3 UDP: the received rate is the receiver's, not end.sum's (the sender's).
	udp := `{"end":{"sum":{"bits_per_second":100e6,"jitter_ms":0.1,"lost_percent":10},"sum_sent":{"bits_per_second":100e6},"sum_received":{"bits_per_second":90e6}}}`
	v, err = parseIperf3([]byte(udp), nil)
	if err != nil || v["received_mbit_per_s"] != 90 || v["sent_mbit_per_s"] != 100 || v["lost_pct"] != 10 {
		t.Errorf("iperf3 UDP: %v %v", v, err)
	}
	// sysbench 0.4's memory test says MB.
	v, err = parseSysbench([]byte("Operations performed: 1 (2.0 ops/sec)\n\n102400.00 MB transferred (2563.86 MB/sec)\n"), nil)
	if err != nil || v["mib_per_s"] != 2563.86 {
		t.Errorf("sysbench 0.4 memory: %v %v", v, err)
	}
	// vars: JSON numbers reach the program as written.
	rec, err := run(t, workload.Params{"cmd": []any{"sh", "-c", "echo n=$N"}, "vars": map[string]any{"N": float64(1000000)}, "metrics": []any{"n=n=([0-9]+)"}})
	if err != nil || rec.One(t, "n") != 1000000 {
		t.Errorf("vars: %v %v", err, rec)
	}
}

// TestMissingProgramIsTheHostCheck: issue 25, validation (Prepare) looked
// for the program on this host, so a spec naming a tool this host lacks was
// invalid. Prepare keeps the name; CheckHost refuses it, naming the Debian
// package of a tool boxtax reads.
func TestMissingProgramIsTheHostCheck(t *testing.T) {
	p := workloadtest.Prepare(t, Cmd, workload.Params{"cmd": "boxtax-absent-tool run"})
	err := workload.CheckHost(Cmd, p)
	if err == nil || !strings.Contains(err.Error(), `program "boxtax-absent-tool" is not on this host: not found`) {
		t.Errorf("CheckHost = %v, want the missing program named", err)
	}
	for name, a := range adapters {
		if a.debian == "" {
			t.Errorf("adapter %s names no Debian package for a missing tool", name)
		}
	}
}
