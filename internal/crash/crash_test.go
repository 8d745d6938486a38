package crash

import (
	"bytes"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
)

// A panic in a goroutine started with Go is a crash report and exit 70,
// not Go's exit 2.
func TestGoReportsAPanicAndExits70(t *testing.T) {
	var out bytes.Buffer
	codes := make(chan int, 1)
	Output, exit = &out, func(code int) { codes <- code; select {} }
	defer func() { Output, exit = nil, nil }()
	Go(func() { panic("boom") })
	if code := <-codes; code != ExitCode {
		t.Errorf("exit %d, want %d", code, ExitCode)
	}
	testenv.Says(t, "the report", out.String(), "crashed in a background task", "boom", "crash_test.go", "boxtax clean")
}
