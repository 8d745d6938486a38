package monitor

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSourcesOnAPiLikeHost(t *testing.T) {
	sources, absent := Sources("testdata/pi/sys", "testdata/pi/proc")
	if len(absent) != 0 {
		t.Errorf("absent on a host that has everything: %v", absent)
	}
	got := map[string]float64{}
	for _, s := range sources {
		for _, r := range s.Read(time.Now()) {
			got[r.Name] = r.Value
		}
	}
	for name, want := range map[string]float64{
		"load1": 0.52, "mem_used_MiB": 400000.0 / 1024, "temp_thermal_zone0_C": 48.312, "freq_cpu0_MHz": 1500,
		"undervoltage_now": 1, "throttled_now": 1, "freq_capped_now": 0, "undervoltage_since_boot": 1,
	} {
		if v, ok := got[name]; !ok || math.Abs(v-want) > 1e-9 {
			t.Errorf("%s = %v (present %v), want %v", name, v, ok, want)
		}
	}
	if _, ok := got["cpu_busy_pct"]; ok {
		t.Error("the first CPU reading only primes the counters")
	}
	h, err := NewHwmon("testdata/pi/sys")
	if err != nil {
		t.Fatal(err)
	}
	if w, ok := h.Watts(time.Now(), nil); !ok || w != 3.25 {
		t.Errorf("hwmon power %v %v, want 3.25 W", w, ok)
	}
}

func TestAbsentSourcesSayWhy(t *testing.T) {
	_, absent := Sources("testdata/bare/sys", "testdata/bare/proc")
	for _, name := range []string{"temperature", "cpu frequency", "throttling"} {
		if !strings.HasPrefix(absent[name], "not available here") {
			t.Errorf("%s: %q", name, absent[name])
		}
	}
	if src, why := FindPower("testdata/bare/sys"); src != nil || !strings.Contains(why, "RAPL") {
		t.Errorf("power on a bare host: %v %q", src, why)
	}
}

func TestCPURatesFromCounterDeltas(t *testing.T) {
	dir := t.TempDir()
	write := func(stat string) {
		os.WriteFile(filepath.Join(dir, "stat"), []byte(stat), 0o644)
	}
	write("cpu  100 0 50 800 10 0 0 0\nintr 5000\nctxt 9000\n")
	s, err := newCPUSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(1000, 0)
	s.Read(t0)
	// 200 jiffies pass: 60 user, 20 system, 100 idle, 20 iowait; 500 context switches in 2 s.
	write("cpu  160 0 70 900 30 0 0 0\nintr 5100\nctxt 9500\n")
	got := map[string]float64{}
	for _, r := range s.Read(t0.Add(2 * time.Second)) {
		got[r.Name] = r.Value
	}
	for name, want := range map[string]float64{"cpu_busy_pct": 40, "cpu_user_pct": 30, "cpu_system_pct": 10, "cpu_iowait_pct": 10, "context_switches_per_s": 250, "interrupts_per_s": 50} {
		if math.Abs(got[name]-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, got[name], want)
		}
	}
}

func TestEstimatedEnergyIntegratesTheModel(t *testing.T) {
	e, err := ParseEstimate("idle=2,full=6")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Unix(0, 0)
	tr := Trace{Start: start, End: start.Add(2 * time.Second), Series: map[string][]float64{}, Units: map[string]string{}}
	for i, busy := range []float64{0, 50, 100} {
		w, _ := e.Watts(start, []Reading{{"cpu_busy_pct", "%", busy}})
		tr.record(start.Add(time.Duration(i)*time.Second), []Reading{{"power_W", "W", w}})
	}
	en := e.Energy(tr)
	// 2, 4 and 6 W one second apart: trapezoids of 3 J and 5 J.
	if en == nil || en.Joules != 8 || en.AvgWatts != 4 || !en.Estimated {
		t.Errorf("energy %+v, want 8 J at 4 W, estimated", en)
	}
	for _, bad := range []string{"idle=5,full=2", "idle=2", "2,6", "idle=x,full=3"} {
		if _, err := ParseEstimate(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestMeterLogIntegratesTheRunWindow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "meter.csv")
	os.WriteFile(path, []byte("time,watts\n100,1\n101,3\n102,3\n103,100\n"), 0o644)
	m := MeterLog{Path: path}
	if err := m.Check(); err != nil {
		t.Fatal(err)
	}
	en := m.Energy(Trace{Start: time.Unix(100, 0), End: time.Unix(102, 0)})
	if en == nil || en.Joules != 5 || en.Source != "meter-log" {
		t.Errorf("energy %+v, want 5 J from the two intervals inside the run", en)
	}
	os.WriteFile(path, []byte("time,watts\n100,1\nyesterday,3\n"), 0o644)
	if err := m.Check(); err == nil || !strings.Contains(err.Error(), "meter.csv:3") {
		t.Errorf("a broken line is not named: %v", err)
	}
}

func TestSamplerRecordsEveryTick(t *testing.T) {
	sources, _ := Sources("/sys", "/proc")
	s := Sampler{Interval: 20 * time.Millisecond, Sources: sources}
	stop := s.Watch(context.Background())
	time.Sleep(110 * time.Millisecond)
	tr := stop()
	if len(tr.Times) < 4 {
		t.Fatalf("%d ticks in 110 ms at 20 ms", len(tr.Times))
	}
	for name, vals := range tr.Series {
		if len(vals) != len(tr.Times) {
			t.Errorf("%s has %d values for %d ticks", name, len(vals), len(tr.Times))
		}
	}
	if _, ok := tr.Mean("cpu_busy_pct"); !ok {
		t.Error("no CPU utilisation recorded")
	}
}
