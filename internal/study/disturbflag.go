package study

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/monitor"
)

// DisturbFlag is --disturbed: the limits past which a run counts as
// disturbed and is left out of the verdicts. "default", "off", or some of
// steal=PCT,iowait=PCT,busy=PCT (the rest at their defaults). A limit
// below 0 marks every run that the monitors saw (a test's way to make the
// classification certain).
type DisturbFlag struct{ Limits **monitor.DisturbLimits }

// String is the flag's value as Set takes it; "" at the defaults.
func (f DisturbFlag) String() string {
	if f.Limits == nil || *f.Limits == nil {
		return ""
	}
	l := **f.Limits
	if l == monitor.Off {
		return "off"
	}
	pct := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return fmt.Sprintf("steal=%s,iowait=%s,busy=%s", pct(l.StealPct), pct(l.IOWaitPct), pct(l.BusyBeforePct))
}

// Set parses the flag's value.
func (f DisturbFlag) Set(s string) error {
	switch s {
	case "default":
		*f.Limits = nil
		return nil
	case "off":
		off := monitor.Off
		*f.Limits = &off
		return nil
	}
	l := monitor.DefaultDisturbLimits
	for _, part := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		pct, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
		if err != nil || math.IsNaN(pct) {
			return fmt.Errorf("--disturbed %q: want default, off, or limits in percent of the CPUs' time such as steal=10,iowait=20,busy=50", s)
		}
		switch k {
		case "steal":
			l.StealPct = pct
		case "iowait":
			l.IOWaitPct = pct
		case "busy":
			l.BusyBeforePct = pct
		default:
			return fmt.Errorf("--disturbed: unknown limit %q; valid: steal, iowait, busy (or default, off)", k)
		}
	}
	*f.Limits = &l
	return nil
}
