package podman

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/env"
)

// TestPodmanReadsTheInjectedEnvironment: the Podman service code reads the
// caller's variables (Options.Getenv), as docker.FromGetenv does, never the
// process's: a CONTAINER_HOST or BOXTAX_PODMAN_USER set only in the
// injected environment is obeyed, and one set only in the process is not.
func TestPodmanReadsTheInjectedEnvironment(t *testing.T) {
	t.Setenv("CONTAINER_HOST", "unix:///process/podman.sock")
	t.Setenv("BOXTAX_PODMAN_USER", "process-user")
	injected := map[string]string{"CONTAINER_HOST": "unix:///injected/podman.sock"}
	getenv := func(k string) string { return injected[k] }

	o := env.Options{Getenv: getenv}
	if got := podmanSockets(nil, o.GetenvOrOS()); !slices.Equal(got, []string{"unix:///injected/podman.sock"}) {
		t.Errorf("podmanSockets = %v, want the injected CONTAINER_HOST", got)
	}
	if got := podmanSockets(nil, env.Options{}.GetenvOrOS()); !slices.Equal(got, []string{"unix:///process/podman.sock"}) {
		t.Errorf("podmanSockets without Getenv = %v, want the process's CONTAINER_HOST", got)
	}
	if os.Geteuid() != 0 {
		t.Skip("rootlessUser reads BOXTAX_PODMAN_USER only as root")
	}
	_, err := rootlessUser(getenv)
	if err == nil || !strings.Contains(err.Error(), "set BOXTAX_PODMAN_USER") {
		t.Errorf("rootlessUser with no user in the injected environment: %v, want the advice to set BOXTAX_PODMAN_USER", err)
	}
	injected["BOXTAX_PODMAN_USER"] = "no-such-user-boxtax"
	if _, err := rootlessUser(getenv); err == nil || !strings.Contains(err.Error(), "BOXTAX_PODMAN_USER=no-such-user-boxtax") {
		t.Errorf("rootlessUser = %v, want the injected user looked up", err)
	}
}
