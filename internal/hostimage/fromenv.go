package hostimage

import (
	"context"
	"errors"

	"github.com/boxtax/boxtax/internal/docker"
)

// FromHostGetenv is FromHost on the engine the caller's environment names
// (DOCKER_HOST, DOCKER_CONTEXT, the docker CLI's current context: see
// docker.FromGetenv); getenv nil is the process environment.
func FromHostGetenv(ctx context.Context, getenv func(string) string, programs []string, o FromHostOptions) (FromHostResult, error) {
	c, err := docker.FromGetenv(getenv)
	if err != nil {
		return FromHostResult{}, err
	}
	return FromHost(ctx, c, programs, o)
}

// IsUserError tells whether an error of FromHost is the user's to fix
// (bad input, a tag naming an image boxtax did not make, an engine that
// does not answer) rather than a failure while working.
func IsUserError(err error) bool {
	var unreachable *docker.UnreachableError
	var input *InputError
	var tagInUse *TagInUseError
	return errors.As(err, &unreachable) || errors.As(err, &input) || errors.As(err, &tagInUse)
}
