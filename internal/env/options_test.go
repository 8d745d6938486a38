package env

import (
	"strings"
	"testing"
)

// Bad names are refused with what would be right.
// A crashed controller's storage=bind directory is removed by clean; a
// running one's is not.
// TestVariantHostChecks: options this host cannot give are refused by
// Available, before a study's first run (issue 25 item 14).
func TestVariantHostChecks(t *testing.T) {
	two := FirstCPUs(2)
	for _, tc := range []struct {
		v    Variant
		want string
	}{
		{Variant{"cpuset": "5"}, "cpuset=5: CPU(s) 5 are not online on this host, which has 0-1: name CPUs it has, e.g. cpuset=1"},
		{Variant{"cpuset": "0-2"}, "CPU(s) 2 are not online"},
		{Variant{"cpus": "100"}, "cpus=100: this host has 2 CPUs, and an engine refuses a quota above them: give at most cpus=2"},
		{Variant{"cpus": "2.5"}, "give at most cpus=2"},
		{Variant{"cpuset": "1", "cpus": "2", "memory": "64m"}, ""},
	} {
		err := CheckVariantHost(tc.v, two)
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.v, err, tc.want)
		}
	}
	if !AppArmorEnabled() {
		if err := CheckVariantHost(Variant{"apparmor": "unconfined"}, two); err == nil || !strings.Contains(err.Error(), "AppArmor off") {
			t.Errorf("apparmor=unconfined without AppArmor: %v", err)
		}
	}
}

// TestCPUSetFor checks the one cpuset rule every environment taking the
// option applies: the option, else the placement, and a clash refused.
func TestCPUSetFor(t *testing.T) {
	tests := []struct {
		name, option, placement, want, err string
	}{
		{"neither", "", "", "", ""},
		{"placement only", "", "0-1", "0-1", ""},
		{"option only", "1", "", "1", ""},
		{"the same", "0-1", "0-1", "0-1", ""},
		{"a clash", "1", "0", "", "cpuset=1: the study's placement already gives this run CPUs 0; drop one of the two"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Variant{}
			if tt.option != "" {
				v["cpuset"] = tt.option
			}
			got, err := v.CPUSetFor(Spec{CPUSet: tt.placement})
			if (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
				t.Fatalf("CPUSetFor: error %v, want %q", err, tt.err)
			}
			if got != tt.want {
				t.Errorf("CPUSetFor = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestOptionTable checks the one table of options the attribution report
// reads: every option names its mechanism, every value said to remove one
// is a value the option takes, and Option reads the table.
func TestOptionTable(t *testing.T) {
	for _, info := range OptionCatalogue() {
		if info.Short == "" {
			t.Errorf("option %s names no mechanism (Short)", info.Key)
		}
		for val := range info.Removes {
			if _, err := info.check(val); err != nil {
				t.Errorf("option %s: removal value %q is not a value it takes: %v", info.Key, val, err)
			}
		}
	}
	_, v, err := ParseName("docker-bridge+seccomp=unconfined+runtime=crun")
	if err != nil {
		t.Fatal(err)
	}
	opts := v.Options()
	if len(opts) != 2 || opts[0].String() != "runtime=crun" || opts[1].String() != "seccomp=unconfined" {
		t.Fatalf("Options = %v, want runtime=crun, seccomp=unconfined in key order", opts)
	}
	if what, ok := opts[1].Removes(); !ok || what != "seccomp system-call filter" {
		t.Errorf("seccomp=unconfined removes %q, %v", what, ok)
	}
	if what, ok := opts[0].Removes(); ok || opts[0].Mechanism() != "crun, the OCI runtime in C" {
		t.Errorf("runtime=crun: removes %q %v, mechanism %q; want no removal, crun named", what, ok, opts[0].Mechanism())
	}
}
