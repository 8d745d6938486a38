package monitor

import (
	"errors"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

var nan = math.NaN()

// PowerSource says how much power the machine draws.
type PowerSource interface {
	Name() string
	// Watts is the power at this tick (readings are the tick's other values,
	// which a model may use); ok is false when unknown.
	Watts(now time.Time, readings []Reading) (w float64, ok bool)
	// Energy is what the run consumed, from the trace or the source's own counters.
	Energy(tr Trace) *Energy
}

// integrate is the trapezoid integral of the trace's power_W over time.
func integrate(tr Trace, source string, estimated bool) *Energy {
	p := tr.Series["power_W"]
	joules, secs := 0.0, 0.0
	for i := 1; i < len(p) && i < len(tr.Times); i++ {
		if p[i] != p[i] || p[i-1] != p[i-1] {
			continue
		}
		dt := tr.Times[i].Sub(tr.Times[i-1]).Seconds()
		joules += (p[i] + p[i-1]) / 2 * dt
		secs += dt
	}
	if secs == 0 {
		return nil
	}
	return &Energy{Source: source, Estimated: estimated, Joules: joules, AvgWatts: joules / secs}
}

// Estimate is PowerPi's linear model: idle watts plus the span to full load
// scaled by CPU utilisation. It is a calibration the user supplies, and its
// figures are always labelled estimated.
type Estimate struct{ IdleW, FullW float64 }

// ParseEstimate reads "idle=2.1,full=4.5".
func ParseEstimate(s string) (Estimate, error) {
	var e Estimate
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), "W"), 64)
		if !ok || err != nil {
			return e, errors.New(`a power model reads "idle=WATTS,full=WATTS", e.g. idle=2.1,full=4.5`)
		}
		switch strings.TrimSpace(k) {
		case "idle":
			e.IdleW = f
		case "full":
			e.FullW = f
		default:
			return e, errors.New(`a power model reads "idle=WATTS,full=WATTS", e.g. idle=2.1,full=4.5`)
		}
	}
	if e.FullW <= e.IdleW || e.IdleW < 0 {
		return e, errors.New("a power model needs 0 <= idle < full watts")
	}
	return e, nil
}

func (e Estimate) Name() string { return "estimate" }

func (e Estimate) Watts(_ time.Time, readings []Reading) (float64, bool) {
	for _, r := range readings {
		if r.Name == "cpu_busy_pct" {
			return e.IdleW + (e.FullW-e.IdleW)*r.Value/100, true
		}
	}
	return 0, false
}

func (e Estimate) Energy(tr Trace) *Energy { return integrate(tr, "estimate", true) }

// RAPL reads Intel/AMD RAPL package energy counters through powercap.
type RAPL struct {
	files     []string // energy_uj of each package domain
	ranges    []float64
	prev      []float64
	prevTime  time.Time
	first     []float64
	firstTime time.Time
}

// NewRAPL finds the package domains under sysfs/class/powercap.
func NewRAPL(sysfs string) (*RAPL, error) {
	r := &RAPL{}
	for _, f := range glob(filepath.Join(sysfs, "class/powercap/*-rapl:[0-9]*/energy_uj")) {
		if strings.Count(filepath.Base(filepath.Dir(f)), ":") != 1 {
			continue // a subzone (core, uncore, dram): the package already counts it
		}
		if _, err := readNumber(f); err != nil {
			continue
		}
		rng, _ := readNumber(filepath.Join(filepath.Dir(f), "max_energy_range_uj"))
		r.files = append(r.files, f)
		r.ranges = append(r.ranges, rng)
	}
	if len(r.files) == 0 {
		return nil, errors.New("no readable RAPL package energy counter in powercap")
	}
	return r, nil
}

func (r *RAPL) Name() string { return "rapl" }

func (r *RAPL) read() ([]float64, bool) {
	out := make([]float64, len(r.files))
	for i, f := range r.files {
		v, err := readNumber(f)
		if err != nil {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// joulesBetween sums the counters' increase, allowing one wrap each.
func (r *RAPL) joulesBetween(a, b []float64) float64 {
	uj := 0.0
	for i := range a {
		d := b[i] - a[i]
		if d < 0 && r.ranges[i] > 0 {
			d += r.ranges[i]
		}
		uj += d
	}
	return uj / 1e6
}

func (r *RAPL) Watts(now time.Time, _ []Reading) (float64, bool) {
	cur, ok := r.read()
	if !ok {
		return 0, false
	}
	defer func() { r.prev, r.prevTime = cur, now }()
	if r.first == nil {
		r.first, r.firstTime = cur, now
	}
	if r.prev == nil || !now.After(r.prevTime) {
		return 0, false
	}
	return r.joulesBetween(r.prev, cur) / now.Sub(r.prevTime).Seconds(), true
}

func (r *RAPL) Energy(tr Trace) *Energy {
	if r.first == nil || r.prev == nil || !r.prevTime.After(r.firstTime) {
		return nil
	}
	j := r.joulesBetween(r.first, r.prev)
	r.first = nil // the next run starts its own count
	return &Energy{Source: "rapl", Joules: j, AvgWatts: j / r.prevTime.Sub(r.firstTime).Seconds()}
}

// Hwmon reads power sensors (INA2xx and the like) in microwatts.
type Hwmon struct{ files []string }

// NewHwmon finds hwmon power*_input sensors.
func NewHwmon(sysfs string) (*Hwmon, error) {
	h := &Hwmon{}
	for _, f := range glob(filepath.Join(sysfs, "class/hwmon/hwmon*/power*_input")) {
		if _, err := readNumber(f); err == nil {
			h.files = append(h.files, f)
		}
	}
	if len(h.files) == 0 {
		return nil, errors.New("no readable hwmon power sensor")
	}
	return h, nil
}

func (h *Hwmon) Name() string { return "hwmon" }

func (h *Hwmon) Watts(time.Time, []Reading) (float64, bool) {
	sum := 0.0
	for _, f := range h.files {
		v, err := readNumber(f)
		if err != nil {
			return 0, false
		}
		sum += v / 1e6
	}
	return sum, true
}

func (h *Hwmon) Energy(tr Trace) *Energy { return integrate(tr, "hwmon", false) }

// FindPower picks the best measured power source on this host: RAPL, then
// hwmon. It returns nil and why when there is none.
func FindPower(sysfs string) (PowerSource, string) {
	if r, err := NewRAPL(sysfs); err == nil {
		return r, ""
	} else if h, err2 := NewHwmon(sysfs); err2 == nil {
		return h, ""
	} else {
		return nil, err.Error() + "; " + err2.Error()
	}
}
