package testenv

import (
	"testing"

	"github.com/boxtax/boxtax/internal/docker"
)

// DockerIntegration begins an integration test against the Docker engine:
// it skips in -short mode (SkipShort) and returns a client for the engine,
// or ends the test as RequireDocker does when none answers.
func DockerIntegration(tb testing.TB) *docker.Client {
	tb.Helper()
	SkipShort(tb, "the Docker engine")
	return RequireDocker(tb)
}
