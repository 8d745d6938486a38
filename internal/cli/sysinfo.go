package cli

import (
	"context"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/engines"
)

func sysinfoCmd(ctx context.Context, g *Globals, args []string) error {
	var format string
	fs := newFlags(g, "sysinfo", "[--format text|json]")
	fs.StringVar(&format, "format", "text", "text or json")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	h := engines.HostFacts(ctx, env.Options{BinaryPath: g.Executable, Version: g.Version})
	switch format {
	case "json":
		return printJSON(g.Stdout, h)
	case "text":
		h.WriteText(g.Stdout)
	default:
		return usagef("unknown format %q; valid formats: text, json", format)
	}
	return nil
}
