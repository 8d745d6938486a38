package main

import (
	"context"
	"fmt"
	"github.com/boxtax/boxtax/internal/crash"
	"io"
	"os"
)

// interruptible returns a context that the first signal on sigs cancels,
// so that boxtax stops the run in flight, removes what it started and keeps
// every finished run; a second signal calls exit at once, for when the
// clean-up itself hangs (an engine that does not answer).
func interruptible(parent context.Context, sigs <-chan os.Signal, stderr io.Writer, exit func(int)) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	crash.Go(func() {
		select {
		case <-sigs:
		case <-ctx.Done():
			return
		}
		fmt.Fprintln(stderr, "boxtax: stopping: removing what this study started (Ctrl-C again to exit at once, leaving it for boxtax clean)")
		cancel()
		<-sigs
		fmt.Fprintln(stderr, "boxtax: exiting at once; boxtax clean removes what is left")
		exit(130)
	})
	return ctx, cancel
}
