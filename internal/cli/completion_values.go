package cli

import (
	"flag"

	"github.com/boxtax/boxtax/internal/env/engines"
	"github.com/boxtax/boxtax/internal/report/formats"
	"github.com/boxtax/boxtax/internal/workload"
)

// flagValues are the values completion offers for a flag of a command
// ("run", "fleet run") that takes one from a list, and whether it takes
// several, comma-separated; nil for a flag whose value is free (a file, a
// number), where the shell offers file names.
func flagValues(command string, f *flag.Flag) (values []string, list bool) {
	switch f.Name {
	case "envs":
		return engines.Names(), true
	case "workloads":
		return workload.Names(), true
	case "workload":
		return workload.Names(), false
	case "wire":
		return []string{"host", "proxy", "netns"}, true
	case "reps":
		return []string{"auto", "paper", "3", "5", "10", "20"}, false
	case "power":
		return []string{"auto", "none"}, false
	case "by":
		return []string{"host"}, false
	case "unit":
		return []string{"slice", "run", "both"}, false
	case "levels":
		return []string{"sorted", "appearance"}, false
	case "format":
		switch command {
		case "report":
			return append(formats.Report(), "md"), false
		case "compare":
			return append(formats.Compare(), "md"), false
		case "analyze":
			return analyzeFormats, false
		case "list":
			return listFormats, false
		}
	}
	return nil, false
}
