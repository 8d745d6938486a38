// Command boxtax measures what running software in containers costs on the
// machine it runs on. See README.md and docs/user-guide.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/boxtax/boxtax/internal/cli"
	_ "github.com/boxtax/boxtax/internal/workload/all" // every built-in workload
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	release := func() { signal.Stop(sigs) } // the next signal: the default action, death
	ctx, stop := interruptible(context.Background(), sigs, os.Stderr, cli.StopNotice(os.Args[1:]), release, os.Exit)
	code := cli.Execute(ctx, cli.DefaultGlobals(version), os.Args[1:])
	stop()
	os.Exit(code)
}
