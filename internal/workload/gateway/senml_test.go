package gateway

import (
	"encoding/json"
	"testing"
)

// senmlDoc is the draft-2015 SenML the gateway serves.
type senmlDoc struct {
	BaseName string `json:"bn"`
	Entries  []struct {
		Name  string   `json:"n"`
		Unit  string   `json:"u"`
		Value *float64 `json:"v"`
		Text  *string  `json:"vs"`
	} `json:"e"`
}

func TestSenMLBody(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    reading
		want string
	}{
		{"simulated low", reading{name: "co2", unit: "ppm", value: 400, decimals: 2}, `{"bn":"iam/","e":[{"n":"co2","u":"ppm","v":400.00}]}`},
		{"simulated high", reading{name: "co2", unit: "ppm", value: 999.99, decimals: 2}, `{"bn":"iam/","e":[{"n":"co2","u":"ppm","v":999.99}]}`},
		{"simulated round", reading{name: "co2", unit: "ppm", value: 612.3, decimals: 2}, `{"bn":"iam/","e":[{"n":"co2","u":"ppm","v":612.30}]}`},
		{"file number", parseReading("value", "45000\n"), `{"bn":"iam/","e":[{"n":"value","v":45000}]}`},
		{"text", parseReading("value", " on \nrest"), `{"bn":"iam/","e":[{"n":"value","vs":"on"}]}`},
		{"not a JSON number", parseReading("value", "NaN"), `{"bn":"iam/","e":[{"n":"value","vs":"NaN"}]}`},
		{"quoted", parseReading("value", `say "hi"`), `{"bn":"iam/","e":[{"n":"value","vs":"say \"hi\""}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := senml(tc.r)
			if string(b) != tc.want {
				t.Errorf("body %s, want %s", b, tc.want)
			}
			var doc senmlDoc
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatalf("not JSON: %v: %s", err, b)
			}
			if doc.BaseName != "iam/" || len(doc.Entries) != 1 || (doc.Entries[0].Value == nil) == (doc.Entries[0].Text == nil) {
				t.Errorf("not one SenML entry with a value: %s", b)
			}
		})
	}
}

// TestSimulatedBodyIs52Bytes: every reading of the simulated sensor makes
// the seed's 52-byte body.
func TestSimulatedBodyIs52Bytes(t *testing.T) {
	a := newAgent(agentSpec{kind: agentSimulated}, 0)
	for i := 0; i < 20000; i++ {
		if err := a.read(t.Context()); err != nil {
			t.Fatal(err)
		}
		b := a.latest()
		if len(b) != 52 {
			t.Fatalf("reading %d: %d bytes, want 52: %s", i, len(b), b)
		}
		var doc senmlDoc
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		if v := *doc.Entries[0].Value; v < 400 || v > 999.99 || doc.Entries[0].Unit != "ppm" {
			t.Fatalf("reading %d: %s", i, b)
		}
	}
}
