package monitor

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cpuSource reads /proc/stat: utilisation by kind, context switches and interrupts.
type cpuSource struct {
	path      string
	prev      []uint64
	prevCtxt  uint64
	prevIntr  uint64
	prevTime  time.Time
	haveFirst bool
}

func newCPUSource(procfs string) (*cpuSource, error) {
	s := &cpuSource{path: filepath.Join(procfs, "stat")}
	if _, _, _, err := readStat(s.path); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *cpuSource) Name() string { return "cpu" }

// readStat reads a /proc/stat: the aggregate CPU jiffies (user nice system
// idle iowait irq softirq steal; guest and guest_nice, already counted in
// user and nice, are left out), ctxt and intr.
func readStat(path string) (cpu []uint64, ctxt, intr uint64, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "cpu":
			for _, v := range f[1:min(len(f), 9)] {
				n, _ := strconv.ParseUint(v, 10, 64)
				cpu = append(cpu, n)
			}
		case "ctxt":
			ctxt, _ = strconv.ParseUint(f[1], 10, 64)
		case "intr":
			intr, _ = strconv.ParseUint(f[1], 10, 64)
		}
	}
	if len(cpu) < 8 {
		return nil, 0, 0, fmt.Errorf("%s has no full cpu line", path)
	}
	return cpu, ctxt, intr, nil
}

func (s *cpuSource) Read(now time.Time) []Reading {
	cpu, ctxt, intr, err := readStat(s.path)
	if err != nil {
		return nil
	}
	defer func() { s.prev, s.prevCtxt, s.prevIntr, s.prevTime, s.haveFirst = cpu, ctxt, intr, now, true }()
	if !s.haveFirst {
		return nil
	}
	var d [8]float64
	total := 0.0
	for i := range d {
		d[i] = float64(cpu[i] - s.prev[i])
		total += d[i]
	}
	secs := now.Sub(s.prevTime).Seconds()
	if total == 0 || secs <= 0 {
		return nil
	}
	pct := func(v float64) float64 { return 100 * v / total }
	return []Reading{
		{"cpu_busy_pct", "%", pct(total - d[3] - d[4])},
		{"cpu_user_pct", "%", pct(d[0] + d[1])},
		{"cpu_system_pct", "%", pct(d[2] + d[5] + d[6])},
		{"cpu_iowait_pct", "%", pct(d[4])},
		{"cpu_steal_pct", "%", pct(d[7])},
		{"context_switches_per_s", "1/s", float64(ctxt-s.prevCtxt) / secs},
		{"interrupts_per_s", "1/s", float64(intr-s.prevIntr) / secs},
	}
}

// loadSource reads the 1-minute load average.
type loadSource struct{ path string }

func newLoadSource(procfs string) (*loadSource, error) {
	s := &loadSource{path: filepath.Join(procfs, "loadavg")}
	_, err := os.ReadFile(s.path)
	return s, err
}

func (s *loadSource) Name() string { return "load" }

func (s *loadSource) Read(time.Time) []Reading {
	b, err := os.ReadFile(s.path)
	if err != nil {
		return nil
	}
	f := strings.Fields(string(b))
	if len(f) < 1 {
		return nil
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return nil
	}
	return []Reading{{"load1", "", v}}
}

// memSource reads memory in use (MemTotal - MemAvailable).
type memSource struct{ path string }

func newMemSource(procfs string) (*memSource, error) {
	s := &memSource{path: filepath.Join(procfs, "meminfo")}
	if len(s.Read(time.Now())) == 0 {
		return nil, fmt.Errorf("%s has no MemTotal and MemAvailable", s.path)
	}
	return s, nil
}

func (s *memSource) Name() string { return "memory" }

func (s *memSource) Read(time.Time) []Reading {
	b, err := os.ReadFile(s.path)
	if err != nil {
		return nil
	}
	var total, avail float64
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		v, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "MemTotal:":
			total = v
		case "MemAvailable:":
			avail = v
		}
	}
	if total == 0 {
		return nil
	}
	return []Reading{{"mem_used_MiB", "MiB", (total - avail) / 1024}}
}
