package env

import (
	"bytes"
	"debug/elf"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/hostimage"
)

// What the container environments share (Docker's, Podman's, LXC's).

// OutputGrace is how long Wait lets the output stream drain after the
// container exited before it gives up on the rest of the output.
const OutputGrace = 10 * time.Second

// CheckStaticELF returns the GOARCH of the binary at path, or an error if it
// is not a statically linked ELF executable, which a FROM scratch image needs.
func CheckStaticELF(path string) (string, error) {
	f, err := elf.Open(path)
	if err != nil {
		if _, statErr := os.Stat(path); statErr != nil {
			return "", fmt.Errorf("the boxtax binary for containers: %w", statErr)
		}
		return "", fmt.Errorf("the boxtax binary at %s is not a Linux ELF executable (%w): "+
			"build it for Linux with CGO_ENABLED=0 (make build)", path, err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			interp, _ := io.ReadAll(io.LimitReader(p.Open(), 256))
			return "", fmt.Errorf("the boxtax binary at %s is dynamically linked and cannot run in a FROM scratch "+
				"image: build it with CGO_ENABLED=0 (make build); it asks for the loader %s", path, bytes.TrimRight(interp, "\x00"))
		}
	}
	return hostimage.GOARCH(f.Machine), nil
}

// MsString formats a duration in milliseconds with microsecond resolution.
func MsString(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 3, 64)
}

// PortList renders published ports for a run's settings.
func PortList(ports []Port) string {
	var out []string
	for _, p := range ports {
		out = append(out, p.String())
	}
	return strings.Join(out, ",")
}
