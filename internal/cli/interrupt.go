package cli

// StopNotice is what boxtax says on stderr when the first Ctrl-C or
// SIGTERM stops the command line args. Only the commands that start
// containers, workers or devices' runs (run, fleet) say they remove what
// they started; the worker says nothing, its stderr being quoted in its
// run's record; the others only stop.
func StopNotice(args []string) string {
	name := ""
	if len(args) > 0 {
		name = args[0]
	}
	switch name {
	case "run", "fleet":
		return "boxtax: stopping: removing what this study started (Ctrl-C again to exit at once, leaving it for boxtax clean)"
	case "worker":
		return ""
	}
	return "boxtax: stopping (Ctrl-C again to exit at once)"
}
