package workload

import (
	"strings"
	"testing"
	"time"
)

type declConfig struct {
	n    int
	d    time.Duration
	size int64
	cmd  string
}

func (c *declConfig) Declare(d *Decl) {
	d.Int(&c.n, "n", 3, "a count")
	d.Duration(&c.d, "duration", 10*time.Minute, "how long")
	d.Bytes(&c.size, "size", 64<<20, "how much")
	d.String(&c.cmd, "cmd", "", "what to run")
	d.Required()
}

func TestDeclaredListsDefaultsAsWritten(t *testing.T) {
	got := Declared(&declConfig{})
	want := []Param{{"n", 3, "a count", false}, {"duration", "10m", "how long", false}, {"size", "64MiB", "how much", false}, {"cmd", "", "what to run", true}}
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("param %d: %v, want %v", i, got[i], want[i])
		}
	}
}

func TestParseSetsFieldsAndReportsEveryError(t *testing.T) {
	c, err := Parse(Params{"cmd": "true", "n": "7"}, &declConfig{})
	if err != nil || c.n != 7 || c.d != 10*time.Minute || c.size != 64<<20 || c.cmd != "true" {
		t.Fatalf("%+v, %v", c, err)
	}
	_, err = Parse(Params{"n": 1.5, "size": "3 parsecs"}, &declConfig{})
	for _, want := range []string{"parameter n: 1.5 is not a whole number", "parameter size:", "parameter cmd is required"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want it to say %q", err, want)
		}
	}
}

func TestFormatSizesAndDurations(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{FormatBytes(0), "0"}, {FormatBytes(4 << 10), "4KiB"}, {FormatBytes(50e6), "50MB"}, {FormatBytes(1000 + 1), "1001"},
		{FormatDuration(0), "0s"}, {FormatDuration(100 * time.Millisecond), "100ms"}, {FormatDuration(time.Hour), "1h"}, {FormatDuration(90 * time.Second), "90s"}, {FormatDuration(150 * time.Second), "2m30s"},
	} {
		if tt.got != tt.want {
			t.Errorf("%q, want %q", tt.got, tt.want)
		}
	}
}

type boundedConfig struct {
	n, events int
	d         time.Duration
	pct       float64
}

func (c *boundedConfig) Declare(d *Decl) {
	d.Int(&c.n, "n", 4, "a count")
	d.Range(1, 64)
	d.Int(&c.events, "events", 0, "how many")
	d.Min(0, "run for duration")
	d.Duration(&c.d, "duration", 5*time.Second, "how long")
	d.Positive()
	d.Float(&c.pct, "pct", 20, "a share")
	d.Positive()
}

// TestBoundsAreCheckedWhereDeclared: a bound declared after a parameter
// refuses a value outside it, naming the parameter, the value and the
// bound (what a special one means, the default as an example).
func TestBoundsAreCheckedWhereDeclared(t *testing.T) {
	for _, tc := range []struct {
		p    Params
		want string
	}{
		{Params{}, ""},
		{Params{"n": 1, "events": 0, "duration": "1ns", "pct": 0.5}, ""},
		{Params{"n": 0}, "parameter n: 0 must be 1 to 64"},
		{Params{"n": 65}, "parameter n: 65 must be 1 to 64"},
		{Params{"events": -1}, "parameter events: -1 must be 0 (run for duration) or more"},
		{Params{"duration": "0s"}, "parameter duration: 0s must be positive, e.g. 5s"},
		{Params{"pct": -2.5}, "parameter pct: -2.5 must be positive, e.g. 20"},
		{Params{"n": "x"}, "parameter n"}, // unreadable: the reading error, no bound
	} {
		_, err := Parse(tc.p, &boundedConfig{})
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%v: %v, want %q", tc.p, err, tc.want)
		}
	}
	if _, err := Parse(Params{"n": 0, "events": -1}, &boundedConfig{}); err == nil || !strings.Contains(err.Error(), "n: 0") || !strings.Contains(err.Error(), "events: -1") {
		t.Errorf("two values out of bounds: %v, want both said", err)
	}
}

type oneOfConfig struct{ protocol string }

func (c *oneOfConfig) Declare(d *Decl) {
	d.String(&c.protocol, "protocol", "tcp", "tcp or udp")
	d.OneOf("tcp", "udp")
}

func TestOneOfRefusesOtherValues(t *testing.T) {
	if c, err := Parse(Params{"protocol": "udp"}, &oneOfConfig{}); err != nil || c.protocol != "udp" {
		t.Errorf("%+v, %v", c, err)
	}
	_, err := Parse(Params{"protocol": "sctp"}, &oneOfConfig{})
	if want := `parameter protocol: "sctp" is not tcp or udp`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}
