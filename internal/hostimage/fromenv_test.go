package hostimage

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/boxtax/boxtax/internal/docker"
)

// TestFromHostGetenvAsksTheEngineTheCallerNames: the engine is the one the
// injected environment's DOCKER_HOST names, and an engine that does not
// answer there is the user's to fix, as bad input and a foreign tag are.
func TestFromHostGetenvAsksTheEngineTheCallerNames(t *testing.T) {
	sock := "unix://" + filepath.Join(t.TempDir(), "no-engine.sock")
	getenv := func(k string) string {
		if k == "DOCKER_HOST" {
			return sock
		}
		return ""
	}
	_, err := FromHostGetenv(context.Background(), getenv, []string{"/bin/ls"}, FromHostOptions{Version: "test"})
	var unreachable *docker.UnreachableError
	if !errors.As(err, &unreachable) || unreachable.Host != sock {
		t.Fatalf("FromHostGetenv = %v, want the engine at %s unreachable", err, sock)
	}
	for _, tt := range []struct {
		err  error
		user bool
	}{
		{err, true},
		{fmt.Errorf("building: %w", &InputError{Err: errors.New("not an ELF file")}), true},
		{&TagInUseError{Tag: "redis:7", ID: "sha256:0123456789abcdef"}, true},
		{errors.New("disk full"), false},
		{nil, false},
	} {
		if got := IsUserError(tt.err); got != tt.user {
			t.Errorf("IsUserError(%v) = %v, want %v", tt.err, got, tt.user)
		}
	}
}
