package report

import (
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/hostinfo"
)

// Fact is one of the host's facts, named.
type Fact struct{ Name, Value string }

// HostFacts lists the host's facts for a page and sums them up in a line.
func HostFacts(h hostinfo.Host) ([]Fact, string) {
	var out []Fact
	add := func(name, value string) {
		if strings.TrimSpace(value) != "" {
			out = append(out, Fact{name, value})
		}
	}
	add("hostname", h.Hostname)
	cpu := h.CPUModel
	if h.CPUs > 0 {
		cpu = fmt.Sprintf("%s, %d logical CPUs", h.CPUModel, h.CPUs)
	}
	add("CPU", cpu)
	if h.MemTotalBytes > 0 {
		add("memory", fmt.Sprintf("%.1f GiB", float64(h.MemTotalBytes)/(1<<30)))
	}
	add("OS / architecture", strings.Trim(h.OS+" / "+h.Arch, " /"))
	add("kernel", strings.TrimSpace(h.KernelRelease+" "+h.KernelVersion))
	add("preemption", h.Preemption)
	add("CPU governor", h.Governor)
	add("virtualized", h.Virtualized)
	for _, f := range h.EngineFacts() {
		add(f.Name, f.Value)
	}
	add("boxtax", h.Boxtax)
	if !h.CollectedAt.IsZero() {
		add("facts collected", h.CollectedAt.UTC().Format("2006-01-02 15:04 MST"))
	}
	line := cpu
	if h.KernelRelease != "" {
		line += ", kernel " + h.KernelRelease
	}
	if d := h.DockerEngine(); d.Name() != "" {
		line += fmt.Sprintf(", %s (%s)", d.Name(), d.StorageDriver)
	}
	if h.Hostname != "" {
		line = h.Hostname + ": " + line
	}
	return out, strings.Trim(line, ", :")
}

// HostLine sums up the host's facts in a line: CPU, kernel, container
// engine, as the HTML report's heading does.
func HostLine(h hostinfo.Host) string {
	_, line := HostFacts(h)
	return line
}
