package workload

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestIntRefusesWhatWouldNotReachTheWorker: issue 25 item 13. A whole
// number is refused where the controller validates it if the worker, which
// reads the parameters from JSON, would read another number; one it takes
// reaches the worker unchanged.
func TestIntRefusesWhatWouldNotReachTheWorker(t *testing.T) {
	for _, tt := range []struct {
		name    string
		v       any
		wantErr string // "": taken
	}{
		{"int64 max", int64(math.MaxInt64), "9223372036854775807 is out of range"},
		{"int max", math.MaxInt, "is out of range"},
		{"int min", math.MinInt, "is out of range"},
		{"uint64 from YAML", uint64(math.MaxUint64), "18446744073709551615 is out of range"},
		{"float beyond int64", 1e19, "1e+19 is out of range"},
		{"string beyond int64", "99999999999999999999", "99999999999999999999 is out of range"},
		{"json number", json.Number("9223372036854775807"), "is out of range"},
		{"2^53 + 1", int64(9007199254740993), "9007199254740993 is out of range"},
		{"2^53", int64(9007199254740992), ""},
		{"-2^53", int64(-9007199254740992), ""},
		{"an ordinary count", 10000, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if n, ok := tt.v.(int64); ok && tt.wantErr == "" && n != int64(int(n)) {
				t.Skipf("%d does not fit this platform's int (%d bits)", n, strconv.IntSize)
			}
			got, err := Params{"n": tt.v}.Int("n")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), "parameter n") {
					t.Fatalf("Int(%v) = %d, %v; want an error saying %q", tt.v, got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(Params{"n": tt.v})
			var atWorker Params
			if err := json.Unmarshal(b, &atWorker); err != nil {
				t.Fatal(err)
			}
			if w, err := atWorker.Int("n"); err != nil || w != got {
				t.Errorf("the controller read %d, the worker %d (%v)", got, w, err)
			}
		})
	}
}

// TestSizesAndDurationsRefuseOverflow: a size or a duration given as a
// number too large for int64 is refused, not wrapped (issue 25 item 13).
func TestSizesAndDurationsRefuseOverflow(t *testing.T) {
	for _, tt := range []struct {
		name string
		read func(Params) error
		v    any
		want string
	}{
		{"bytes as number", func(p Params) error { _, err := p.Bytes("x"); return err }, 1e30, "out of range"},
		{"bytes with unit", func(p Params) error { _, err := p.Bytes("x"); return err }, "99999999TiB", "out of range"},
		{"bytes from YAML uint64", func(p Params) error { _, err := p.Bytes("x"); return err }, uint64(math.MaxUint64), "out of range"},
		{"seconds", func(p Params) error { _, err := p.Duration("x"); return err }, 1e12, "out of range"},
		{"NaN seconds", func(p Params) error { _, err := p.Duration("x"); return err }, math.NaN(), "not a finite number"},
		{"infinite float", func(p Params) error { _, err := p.Float("x"); return err }, math.Inf(1), "not a finite number"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.read(Params{"x": tt.v})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "parameter x") {
				t.Errorf("error %v, want one saying parameter x ... %q", err, tt.want)
			}
		})
	}
}
