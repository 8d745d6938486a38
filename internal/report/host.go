package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/env/docker"
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
	for _, l := range LeftOut(h) {
		add("left out: "+l.Env, l.Reason)
	}
	add("boxtax", h.Boxtax)
	if !h.CollectedAt.IsZero() {
		add("facts collected", h.CollectedAt.UTC().Format("2006-01-02 15:04 MST"))
	}
	line := cpu
	if h.KernelRelease != "" {
		line += ", kernel " + h.KernelRelease
	}
	if d := docker.FactsOf(h); d.Name() != "" {
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

// LeftOutEnv is an environment of the study that did not run on the host,
// with why: run --skip-unavailable (and fleet run, which always skips)
// left it out because it could not run there, or because the user's
// command failed in its check run there.
type LeftOutEnv struct{ Env, Reason string }

// LeftOut lists the environments left out on the host, by name, each
// reason on one line, the environment's name it may begin with dropped:
// every output says them, not the JSON alone (issue 42 item 8), since a
// table of the baseline alone reads as a study of it.
func LeftOut(h hostinfo.Host) []LeftOutEnv {
	var out []LeftOutEnv
	for _, e := range slices.Sorted(maps.Keys(h.Unavailable)) {
		out = append(out, LeftOutEnv{e, strings.TrimPrefix(OneLine(h.Unavailable[e]), e+": ")})
	}
	return out
}

// LeftOutLine says the environments left out on the host in a line, or "".
func LeftOutLine(h hostinfo.Host) string {
	var parts []string
	for _, l := range LeftOut(h) {
		parts = append(parts, l.Env+" ("+l.Reason+")")
	}
	if len(parts) == 0 {
		return ""
	}
	return "not run here, left out by --skip-unavailable: " + strings.Join(parts, "; ")
}
