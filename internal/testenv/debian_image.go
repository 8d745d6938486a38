package testenv

import (
	"context"
	"testing"
)

// The real images of the image study's tests (issue 38), built from
// Debian's packages by .ci/debian-image.sh, which .ci/run calls.
const (
	// DebianGzipImage has no entrypoint, CMD gzip -c GPL-3, ENV
	// BOXTAX_IMAGE_VAR=from-the-image, WORKDIR /srv and a program only it
	// has: /usr/local/bin/boxtax-only-in-image.
	DebianGzipImage = "boxtax-test-debian:gzip"
	// DebianMosquittoImage runs mosquitto on port 1883 (EXPOSE 1883).
	DebianMosquittoImage = "boxtax-test-debian:mosquitto"
)

// RequireDebianImage ends the test as Missing does unless Docker has the
// image tag, naming the script that builds it.
func RequireDebianImage(tb testing.TB, tag string) {
	tb.Helper()
	c := RequireDocker(tb)
	if _, err := c.ImageInspect(context.Background(), tag); err != nil {
		Missing(tb, "Docker has no image %s (%v): build it with .ci/debian-image.sh (needs mmdebstrap and Debian's mirror)", tag, err)
	}
}
