package engines

import (
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
