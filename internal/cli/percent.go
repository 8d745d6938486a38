package cli

import (
	"fmt"
	"strconv"
	"strings"
)

// percentFlag is a percentage above 0 and at most 100, with or without
// the % sign (report --precision).
type percentFlag struct{ dst *float64 }

func (p percentFlag) String() string {
	if p.dst == nil || *p.dst == 0 {
		return ""
	}
	return strconv.FormatFloat(*p.dst, 'g', -1, 64) + "%"
}

func (p percentFlag) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || !(v > 0 && v <= 100) {
		return fmt.Errorf("want a percentage above 0 and at most 100, like 2%%, not %q", s)
	}
	*p.dst = v
	return nil
}
