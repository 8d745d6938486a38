package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/hostinfo"
)

func sysinfoCmd(ctx context.Context, g *Globals, args []string) error {
	var format string
	fs := newFlags(g, "sysinfo", "[--format text|json]")
	fs.StringVar(&format, "format", "text", "text or json")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	h := hostinfo.Collect(g.Version)
	h.Engines = env.HostEngines(ctx, env.Options{BinaryPath: g.Executable, Version: g.Version})
	switch format {
	case "json":
		b, _ := json.MarshalIndent(h, "", "  ")
		fmt.Fprintln(g.Stdout, string(b))
	case "text":
		p := func(k, v string) {
			if v == "" {
				v = "(not readable here)"
			}
			fmt.Fprintf(g.Stdout, "%-16s %s\n", k+":", v)
		}
		p("hostname", h.Hostname)
		p("os/arch", h.OS+"/"+h.Arch)
		p("cpu", fmt.Sprintf("%s x %d", h.CPUModel, h.CPUs))
		p("memory", fmt.Sprintf("%.1f GiB", float64(h.MemTotalBytes)/(1<<30)))
		p("kernel", h.KernelRelease)
		p("preemption", h.Preemption)
		p("cpu governor", h.Governor)
		p("virtualized", h.Virtualized)
		for _, key := range hostinfo.EngineKeys() {
			if e := h.Engines[key]; e != nil {
				p(key, e.Detail())
			}
		}
		p("boxtax", h.Boxtax)
	default:
		return usagef("unknown format %q; valid formats: text, json", format)
	}
	return nil
}
