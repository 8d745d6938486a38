package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/boxtax/boxtax/internal/crash"
)

// interruptible returns a context that the first signal on sigs cancels,
// so that boxtax stops the work in flight, removes what it started and
// keeps every finished run. It then calls release, which hands the
// signals back to their default action: a second one ends the process
// in the kernel, at once, whatever the process is doing (waiting on a
// collection, blocked on a stderr nobody reads, cleaning up against an
// engine that does not answer). Only then does it print notice (none when
// empty). A second signal that came before release calls exit(130).
//
// The returned stop cancels the context and, after a signal, waits until
// the notice is written, so that the process does not end before it.
func interruptible(parent context.Context, sigs <-chan os.Signal, stderr io.Writer, notice string, release func(), exit func(int)) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	said := make(chan struct{})
	crash.Go(func() {
		select {
		case <-sigs:
		case <-ctx.Done():
			close(said)
			return
		}
		cancel()
		release()
		if notice != "" {
			fmt.Fprintln(stderr, notice)
		}
		close(said)
		<-sigs
		exit(130)
	})
	return ctx, func() {
		cancel()
		<-said
	}
}
