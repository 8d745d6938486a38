package hostinfo

import (
	"fmt"
	"io"
)

// WriteText writes the facts as boxtax sysinfo prints them: a line a fact,
// its name padded to a column, "(not readable here)" for one not found,
// then every engine's Detail, the engines by rank (RegisterEngine).
func (h Host) WriteText(w io.Writer) {
	p := func(k, v string) {
		if v == "" {
			v = "(not readable here)"
		}
		fmt.Fprintf(w, "%-16s %s\n", k+":", v)
	}
	p("hostname", h.Hostname)
	p("os/arch", h.OS+"/"+h.Arch)
	p("cpu", fmt.Sprintf("%s x %d", h.CPUModel, h.CPUs))
	p("memory", fmt.Sprintf("%.1f GiB", float64(h.MemTotalBytes)/(1<<30)))
	p("kernel", h.KernelRelease)
	p("preemption", h.Preemption)
	p("cpu governor", h.Governor)
	p("virtualized", h.Virtualized)
	for _, key := range EngineKeys() {
		if e := h.Engines[key]; e != nil {
			p(key, e.Detail())
		}
	}
	p("boxtax", h.Boxtax)
}
