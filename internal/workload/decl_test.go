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
