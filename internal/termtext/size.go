package termtext

import (
	"fmt"
	"strings"
)

// Size writes a byte count as people read it: 38 MB, 512 kB, 120 B.
func Size(n int64) string {
	switch {
	case n >= 10_000_000:
		return fmt.Sprintf("%d MB", (n+500_000)/1_000_000)
	case n >= 1_000_000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%d kB", (n+500)/1000)
	}
	return fmt.Sprintf("%d B", n)
}

// SizeIEC writes a byte count in binary units, exactly when it is a whole
// number of them: 64 MiB, 64.5 MiB, 12 KiB, 120 bytes.
func SizeIEC(n int64) string {
	for _, u := range []struct {
		name  string
		bytes int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.bytes {
			if n%u.bytes == 0 {
				return fmt.Sprintf("%d %s", n/u.bytes, u.name)
			}
			return fmt.Sprintf("%.1f %s", float64(n)/float64(u.bytes), u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// SizeAgainst writes n beside a limit it exceeds so that the two read
// differently: in binary units, or in bytes when those round to the
// limit's figure (64 MiB and 1 byte is "67,108,865 bytes", not 64.0 MiB).
func SizeAgainst(n, limit int64) string {
	got, lim := strings.Fields(SizeIEC(n)), strings.Fields(SizeIEC(limit))
	if got[1] != lim[1] || strings.TrimSuffix(got[0], ".0") != lim[0] {
		return strings.Join(got, " ")
	}
	return GroupDigits(n) + " bytes"
}

// GroupDigits writes n with commas between thousands: 67,108,865.
func GroupDigits(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
