package docker

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/envtest"
)

func TestVariantNamesTheEnvironment(t *testing.T) {
	e := envtest.New(t, Environments(), "docker-bridge+network=host", env.Options{})
	d := e.(*Env)
	if d.Name() != "docker-bridge+network=host" || d.networkMode != "host" || d.OwnNetwork() {
		t.Errorf("docker-bridge+network=host: name %q, network mode %q, own network %v; want host networking", d.Name(), d.networkMode, d.OwnNetwork())
	}
	if !strings.Contains(d.Description(), "with network=host") {
		t.Errorf("description %q does not say its options", d.Description())
	}
	if env.BaseName(d.Name()) != "docker-bridge" {
		t.Errorf("BaseName = %q", env.BaseName(d.Name()))
	}
}

func TestSubIDsNamed(t *testing.T) {
	if _, err := os.Stat("/etc/subuid"); err != nil {
		t.Skip("no /etc/subuid here")
	}
	err := CheckSubIDs("no-such-user-boxtax")
	if err == nil || !strings.Contains(err.Error(), "no-such-user-boxtax:2147483647:2147483648") {
		t.Errorf("CheckSubIDs(unknown user) = %v, want the line to add", err)
	}
}

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
