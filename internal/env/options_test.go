package env

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestParseNameCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"docker-bridge": "docker-bridge",
		"docker-bridge+storage=bind+seccomp=unconfined": "docker-bridge+seccomp=unconfined+storage=bind",
		"podman-host+cpus=1.50+memory=512M":             "podman-host+cpus=1.5+memory=512m",
		"lxc+seccomp=unconfined":                        "lxc+seccomp=unconfined",
		// Options that restate the default name the environment itself
		// (issue 25, item 15).
		"docker-bridge+network=bridge":                      "docker-bridge",
		"docker-host+network=host+seccomp=unconfined":       "docker-host+seccomp=unconfined",
		"docker-host+network=bridge":                        "docker-host+network=bridge",
		"podman-bridge+userns=host+storage=own+cpus=1":      "podman-bridge+cpus=1",
		"lxc+seccomp=default":                               "lxc",
		"docker-bridge+cpuset=1,0":                          "docker-bridge+cpuset=0-1",
		"docker-bridge+cpuset=0,2,3":                        "docker-bridge+cpuset=0,2-3",
		"docker-bridge+apparmor=default+seccomp=unconfined": "docker-bridge+seccomp=unconfined",
	} {
		got, err := Check(in)
		if err != nil || got != want {
			t.Errorf("Check(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// Bad names are refused with what would be right.
func TestParseNameErrors(t *testing.T) {
	for in, want := range map[string]string{
		"docker-bridge+seccomp":                         "not key=value",
		"docker-bridge+secomp=unconfined":               "unknown option \"secomp\"; valid options: network, seccomp, apparmor, storage, cpus, cpuset, memory, runtime, userns",
		"docker-bridge+seccomp=off":                     `"off" is not one of default, unconfined`,
		"docker-bridge+cpus=0":                          "not a positive number of CPUs",
		"docker-bridge+cpus=NaN":                        "not a positive number of CPUs",
		"docker-bridge+cpus=Inf":                        "not a positive number of CPUs",
		"docker-bridge+memory=1x":                       "not a size",
		"docker-bridge+memory=1k":                       "below the 6 MiB",
		"docker-bridge+cpuset=1-0":                      "not a CPU list",
		"docker-bridge+seccomp=default+seccomp=default": "given twice",
		"native+seccomp=unconfined":                     "native takes no options",
		"lxc+network=host":                              "lxc has no network option; it takes seccomp, cpus, cpuset, memory",
		"docker-bridge+userns=auto":                     "docker-bridge has no userns option",
		"lxc+runtime=runsc":                             "lxc has no runtime option",
		"dokcer-bridge+seccomp=unconfined":              `unknown environment "dokcer-bridge"; valid environments: native, `,
	} {
		_, err := Check(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check(%q) = %v; want an error with %q", in, err, want)
		}
	}
}

func TestVariantNamesTheEnvironment(t *testing.T) {
	e := newEnv(t, "docker-bridge+network=host", Options{})
	d := e.(*dockerEnv)
	if d.Name() != "docker-bridge+network=host" || d.networkMode != "host" || d.OwnNetwork() {
		t.Errorf("docker-bridge+network=host: name %q, network mode %q, own network %v; want host networking", d.Name(), d.networkMode, d.OwnNetwork())
	}
	if !strings.Contains(d.Description(), "with network=host") {
		t.Errorf("description %q does not say its options", d.Description())
	}
	if BaseName(d.Name()) != "docker-bridge" {
		t.Errorf("BaseName = %q", BaseName(d.Name()))
	}
}

func TestLXCConfigLimits(t *testing.T) {
	for _, v2 := range []bool{false, true} {
		text, err := lxcConfig{Name: "x", Rootfs: "/r", Tmp: "/t", CgroupV2: v2, CPUQuotaNano: cpusNano("1.5"), MemoryBytes: 64 << 20}.render()
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"lxc.cgroup.cpu.cfs_quota_us = 150000", "lxc.cgroup.cpu.cfs_period_us = 100000", "lxc.cgroup.memory.limit_in_bytes = 67108864"}
		if v2 {
			want = []string{"lxc.cgroup2.cpu.max = 150000 100000", "lxc.cgroup2.memory.max = 67108864"}
		}
		for _, w := range want {
			if !strings.Contains(text, w+"\n") {
				t.Errorf("cgroup v2 %v: config lacks %q:\n%s", v2, w, text)
			}
		}
	}
}

func TestSubIDsNamed(t *testing.T) {
	if _, err := os.Stat("/etc/subuid"); err != nil {
		t.Skip("no /etc/subuid here")
	}
	err := checkSubIDs("no-such-user-boxtax")
	if err == nil || !strings.Contains(err.Error(), "no-such-user-boxtax:2147483647:2147483648") {
		t.Errorf("checkSubIDs(unknown user) = %v, want the line to add", err)
	}
}

// A crashed controller's storage=bind directory is removed by clean; a
// running one's is not.
func TestRemoveStorageLeftovers(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dead := filepath.Join(os.TempDir(), storageDirPrefix+"999999999-abc")
	live := filepath.Join(os.TempDir(), storageDirPrefix+strconv.Itoa(os.Getpid())+"-abc")
	for _, d := range []string{dead, live} {
		if err := os.MkdirAll(filepath.Join(d, "boxtax-1"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := RemoveStorageLeftovers()
	if err != nil || len(removed) != 1 || removed[0] != dead {
		t.Fatalf("removed %v, %v; want only %s", removed, err, dead)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the running controller's directory was removed: %v", err)
	}
}

// TestVariantHostChecks: options this host cannot give are refused by
// Available, before a study's first run (issue 25 item 14).
func TestVariantHostChecks(t *testing.T) {
	two := firstCPUs(2)
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
		err := checkVariantHost(tc.v, two)
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.v, err, tc.want)
		}
	}
	if !appArmorEnabled() {
		if err := checkVariantHost(Variant{"apparmor": "unconfined"}, two); err == nil || !strings.Contains(err.Error(), "AppArmor off") {
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
			got, err := v.cpusetFor(Spec{CPUSet: tt.placement})
			if (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
				t.Fatalf("cpusetFor: error %v, want %q", err, tt.err)
			}
			if got != tt.want {
				t.Errorf("cpusetFor = %q, want %q", got, tt.want)
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
