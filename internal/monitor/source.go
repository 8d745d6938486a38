package monitor

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Reading is one value a source read at one moment.
type Reading struct {
	Name  string // e.g. cpu_user_pct, load1, temp_thermal_zone0_C
	Unit  string
	Value float64
}

// Source reads one kind of host state. Sources that count (CPU time,
// context switches) report rates over the time since their last reading.
type Source interface {
	// Name says what the source reads, e.g. "cpu", "thermal".
	Name() string
	// Read returns the current values; the first call primes counters and may
	// return nothing.
	Read(now time.Time) []Reading
}

// Sources lists the sources that can be read on this host, and for each one
// that cannot, why: "not available here" is reported, never a zero.
func Sources(sysfs, procfs string) (available []Source, absent map[string]string) {
	absent = map[string]string{}
	for _, src := range []struct {
		name string
		open func() (Source, error)
	}{
		{"cpu", openIn(procfs, newCPUSource)},
		{"load", openIn(procfs, newLoadSource)},
		{"memory", openIn(procfs, newMemSource)},
		{"temperature", openIn(sysfs, newThermalSource)},
		{"cpu frequency", openIn(sysfs, newFreqSource)},
		{"throttling", openIn(sysfs, newThrottleSource)},
	} {
		s, err := src.open()
		if err != nil {
			absent[src.name] = "not available here: " + err.Error()
			continue
		}
		available = append(available, s)
	}
	return available, absent
}

// openIn makes the opening of a source whose files are in dir (procfs or
// sysfs).
func openIn[S Source](dir string, open func(dir string) (S, error)) func() (Source, error) {
	return func() (Source, error) { return open(dir) }
}

// readNumber reads a file holding one number.
func readNumber(path string) (float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
}

// glob returns the sorted matches of a pattern.
func glob(pattern string) []string {
	m, _ := filepath.Glob(pattern)
	sort.Strings(m)
	return m
}
