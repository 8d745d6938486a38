package crash

import (
	"bytes"
	"strings"
	"testing"
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
	for _, want := range []string{"crashed in a background task", "boom", "crash_test.go", "boxtax clean"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
}
