package hostinfo

import "testing"

func TestLabel(t *testing.T) {
	for _, tc := range []struct {
		name, json, want string
	}{
		{"device name wins", `{"hostname":"raspberrypi","device":"pi4-kitchen"}`, "pi4-kitchen"},
		{"hostname otherwise", `{"hostname":"raspberrypi"}`, "raspberrypi"},
		{"nothing readable", `not json`, "unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := LabelOf(tc.json); got != tc.want {
				t.Errorf("LabelOf = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCheckLabel(t *testing.T) {
	for _, tc := range []struct {
		label string
		ok    bool
	}{
		{"pi4-kitchen", true}, {"gw_01.lab", true}, {"", false}, {"two words", false}, {"a,b", false}, {"pi\n", false}, {"π", false},
	} {
		t.Run(tc.label, func(t *testing.T) {
			if err := CheckLabel(tc.label); (err == nil) != tc.ok {
				t.Errorf("CheckLabel(%q) = %v, want ok=%v", tc.label, err, tc.ok)
			}
		})
	}
}
