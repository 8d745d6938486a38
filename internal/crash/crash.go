// Package crash turns a panic anywhere in the controller into the same
// crash report and exit status: the panic and its stack on stderr, and
// ExitCode (70, EX_SOFTWARE), distinct from bad input's 2, which Go's own
// crash exit would be read as.
package crash

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// ExitCode is the exit status of a crash (sysexits.h EX_SOFTWARE).
const ExitCode = 70

// Output is where a crash report goes; exit ends the process.
var (
	Output io.Writer = os.Stderr
	exit             = os.Exit
)

// Go runs f in a new goroutine; a panic in it is reported as a crash of
// boxtax and ends the process with ExitCode. What the process started is
// left for `boxtax clean` (labels, names), as after kill -9.
func Go(f func()) {
	go func() {
		defer Recover("a background task")
		f()
	}()
}

// Recover, deferred, reports a panic of the calling goroutine and exits.
func Recover(where string) {
	if p := recover(); p != nil {
		fmt.Fprintf(Output, "boxtax: crashed in %s (a bug in boxtax, please report it with this text): %v\n%s"+
			"containers or network objects it started may be left: boxtax clean removes them\n", where, p, debug.Stack())
		exit(ExitCode)
	}
}
