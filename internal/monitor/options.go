package monitor

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"
)

// Options choose what is watched during a study's runs (--monitor-interval,
// --power).
type Options struct {
	Interval time.Duration // 0: no monitors
	Power    string        // auto, none, estimate:idle=W,full=W, meter:FILE
}

// Sampler builds the monitors and the power source the options ask for, and
// a line saying what will be watched and what is not available here. An
// error says which option cannot be had and what to give instead.
func (o Options) Sampler() (*Sampler, map[string]string, string, error) {
	if o.Interval <= 0 {
		return nil, nil, "monitors: off", nil
	}
	sources, absent := Sources("/sys", "/proc")
	s := &Sampler{Interval: o.Interval, Sources: sources}
	var power string
	switch p := o.Power; {
	case p == "none":
		power = "power: off"
	case p == "auto" || p == "":
		src, why := FindPower("/sys")
		if src == nil {
			absent["power"] = "not available here: " + why + " (give --power estimate:idle=W,full=W or --power meter:FILE)"
			power = "power: not available here"
			break
		}
		s.Power, power = src, "power: "+src.Name()
	case strings.HasPrefix(p, "estimate:"):
		est, err := ParseEstimate(strings.TrimPrefix(p, "estimate:"))
		if err != nil {
			return nil, nil, "", fmt.Errorf("--power: %w", err)
		}
		s.Power, power = est, fmt.Sprintf("power: estimated from CPU utilisation (idle %.2f W, full %.2f W)", est.IdleW, est.FullW)
	case strings.HasPrefix(p, "meter:"):
		m := MeterLog{Path: strings.TrimPrefix(p, "meter:")}
		if f, err := os.Open(m.Path); err != nil {
			return nil, nil, "", fmt.Errorf("--power meter: cannot read the meter's log: %v (start the meter's logging first)", err)
		} else {
			f.Close()
		}
		s.Power, power = m, "power: external meter log "+m.Path
	default:
		return nil, nil, "", fmt.Errorf("--power %q: use auto, none, estimate:idle=W,full=W or meter:FILE", p)
	}
	var names []string
	for _, src := range sources {
		names = append(names, src.Name())
	}
	missing := slices.Sorted(maps.Keys(absent))
	line := fmt.Sprintf("monitors every %s: %s; %s", o.Interval, strings.Join(names, ", "), power)
	if len(missing) > 0 {
		line += "; not available here: " + strings.Join(missing, ", ")
	}
	return s, absent, line, nil
}
