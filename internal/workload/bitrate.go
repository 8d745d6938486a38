package workload

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseBitRate parses a link or sending rate in bits per second as tc and
// iperf write it: "100mbit", "1gbit", "500kbit", "90M", "1.5G", "64000"
// (k, m, g are powers of 1000; bit, bps and b/s suffixes are optional).
func ParseBitRate(s string) (bitsPerS float64, err error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, suffix := range []string{"bit/s", "bits", "bit", "bps", "b/s"} {
		if strings.HasSuffix(t, suffix) {
			t = strings.TrimSuffix(t, suffix)
			break
		}
	}
	mult := 1.0
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'k':
			mult, t = 1e3, t[:n-1]
		case 'm':
			mult, t = 1e6, t[:n-1]
		case 'g':
			mult, t = 1e9, t[:n-1]
		}
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("%q is not a bit rate like 100mbit, 1gbit or 500kbit", s)
	}
	return f * mult, nil
}

// BitRate reads a bit-rate parameter ("100mbit", "1gbit", 0) in bits per second.
func (p Params) BitRate(name string) (float64, error) {
	return withUnit(p, name, "a bit rate", func(bitsPerS float64) (float64, error) { return bitsPerS, nil }, ParseBitRate)
}
