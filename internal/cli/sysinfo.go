package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/boxtax/boxtax/internal/hostinfo"
)

func sysinfoCmd(ctx context.Context, g *Globals, args []string) error {
	var format string
	fs := newFlags(g, "sysinfo", "[--format text|json]")
	fs.StringVar(&format, "format", "text", "text or json")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	h := collectHost(ctx, g, true)
	h.Podman = podmanSysinfo(ctx, g)
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
		if d := h.Docker; d != nil {
			if d.Error != "" {
				p("docker", "unavailable: "+d.Error)
			} else {
				p("docker", fmt.Sprintf("%s at %s, API %s (daemon serves %s), storage %s, cgroup v%s %s",
					d.Name(), d.Host, d.APIVersion, d.DaemonAPI, d.StorageDriver, d.CgroupVersion, d.CgroupDriver))
			}
		}
		if d := h.Podman; d != nil {
			if d.Error != "" {
				p("podman", "unavailable: "+d.Error)
			} else {
				rootless := ""
				if d.Rootless {
					rootless = ", rootless"
				}
				p("podman", fmt.Sprintf("%s at %s, API %s, storage %s, runtime %s, cgroup v%s %s%s",
					d.Name(), d.Host, d.APIVersion, d.StorageDriver, d.OCIRuntime, d.CgroupVersion, d.CgroupDriver, rootless))
			}
		}
		if l := hostinfo.CollectLXC(ctx); l.Error == "" {
			p("lxc", fmt.Sprintf("%s, storage %s, cgroup v%s", l.Name(), l.Storage, l.CgroupVersion))
		}
		p("boxtax", h.Boxtax)
	default:
		return usagef("unknown format %q; valid formats: text, json", format)
	}
	return nil
}
