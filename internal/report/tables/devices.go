package tables

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/boxtax/boxtax/internal/env/docker"
	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/termtext"
)

// envsOf is every environment of any device, the first device's order first,
// the baseline leading.
func envsOf(d *report.Devices) []string {
	var out []string
	for _, dev := range d.Devices {
		for _, e := range dev.Report.Envs() {
			if !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
		for _, e := range slices.Sorted(maps.Keys(dev.Unavailable)) {
			if !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	return out
}

// deviceRow is one metric of one row group with a cell per device and env.
type deviceRow struct {
	name, metric string
	cells        []map[string]*report.Cell // by device, then env
}

// rowsOf lines up the rows of every device: the first device's order, then
// rows only later devices have.
func rowsOf(d *report.Devices) []deviceRow {
	var out []deviceRow
	index := map[string]int{}
	for i, dev := range d.Devices {
		for _, rw := range dev.Report.Rows() {
			k := rw.Name + "\x00" + rw.Metric
			n, ok := index[k]
			if !ok {
				n = len(out)
				index[k] = n
				out = append(out, deviceRow{name: rw.Name, metric: rw.Metric, cells: make([]map[string]*report.Cell, len(d.Devices))})
			}
			out[n].cells[i] = rw.Cells
		}
	}
	return out
}

// deviceLines are the table's lines: a row's name and metric, then each
// device's figure for each of envs.
func deviceLines(d *report.Devices, envs []string) [][]string {
	var out [][]string
	for _, rw := range rowsOf(d) {
		line := []string{rw.name, rw.metric}
		for i, dev := range d.Devices {
			for _, e := range envs {
				line = append(line, deviceCellText(dev, rw.cells[i], e))
			}
		}
		out = append(out, line)
	}
	return out
}

// deviceCellText is a device's figure for an env: the seeds' layout, or why
// there is none.
func deviceCellText(dev report.DeviceReport, cells map[string]*report.Cell, env string) string {
	if c := cells[env]; c != nil {
		return report.SeedCell(c)
	}
	if _, ok := dev.Unavailable[env]; ok {
		return "unavailable"
	}
	return "-"
}

// baselinesOf names the devices' baselines, each once.
func baselinesOf(d *report.Devices) string {
	seen := map[string]bool{}
	var out []string
	for _, dev := range d.Devices {
		if b := dev.Report.Study.Baseline; !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	return strings.Join(out, ", ")
}

// WriteDevicesTable prints, for a terminal, each device with its host
// and runs, then the table: a column group per device.
func WriteDevicesTable(w io.Writer, d *report.Devices) error {
	w = termtext.Wrap(w)
	fmt.Fprintf(w, "%d devices, study %q\n", len(d.Devices), nameOf(d))
	for _, dev := range d.Devices {
		r := dev.Report
		fmt.Fprintf(w, "  %s: study %d (%s), %s; runs: %d ok, %d failed, %d pending\n", dev.Label, r.Study.ID, r.Study.Status, hostLine(r.Host()), r.Runs.OK, r.Runs.Failed, r.Runs.Pending)
	}
	fmt.Fprintf(w, "Per device: %s as mean (std) over the measured runs; other environments: %% deviation from that device's %s mean (std); * the 95%% CI excludes 0.\n\n", baselinesOf(d), baselinesOf(d))
	envs := envsOf(d)
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	head1, head2 := []string{"", ""}, []string{"workload", "metric"}
	for _, dev := range d.Devices {
		for j, e := range envs {
			if j == 0 {
				head1 = append(head1, "["+dev.Label+"]")
			} else {
				head1 = append(head1, "")
			}
			head2 = append(head2, e)
		}
	}
	fmt.Fprintln(tw, strings.Join(head1, "\t"))
	fmt.Fprintln(tw, strings.Join(head2, "\t"))
	for _, line := range deviceLines(d, envs) {
		fmt.Fprintln(tw, strings.Join(line, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	writeDeviceNotes(w, d)
	return nil
}

// writeDeviceNotes lists what a device could not run and its warnings.
func writeDeviceNotes(w io.Writer, d *report.Devices) {
	for _, dev := range d.Devices {
		for _, e := range slices.Sorted(maps.Keys(dev.Unavailable)) {
			fmt.Fprintf(w, "\n%s: %s unavailable: %s", dev.Label, e, report.OneLine(dev.Unavailable[e]))
		}
		for _, f := range dev.Report.Failures {
			fmt.Fprintf(w, "\n%s: run %d %s @ %s failed: %s", dev.Label, f.Seq+1, f.Workload, f.Env, report.OneLine(f.Reason))
		}
		for _, warn := range dev.Report.Warnings {
			fmt.Fprintf(w, "\n%s: %s", dev.Label, warn)
		}
	}
	fmt.Fprintln(w)
}

// WriteDevicesMarkdown prints the devices and the table in Markdown.
func WriteDevicesMarkdown(w io.Writer, d *report.Devices) error {
	w = termtext.Wrap(w)
	fmt.Fprintf(w, "## Study %q on %d devices\n\n", nameOf(d), len(d.Devices))
	for _, dev := range d.Devices {
		fmt.Fprintf(w, "- **%s**: %s\n", dev.Label, hostLine(dev.Report.Host()))
	}
	envs := envsOf(d)
	head := []string{"workload", "metric"}
	for _, dev := range d.Devices {
		for _, e := range envs {
			head = append(head, dev.Label+" "+e)
		}
	}
	fmt.Fprintf(w, "\n| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, line := range deviceLines(d, envs) {
		fmt.Fprintf(w, "| %s |\n", strings.Join(line, " | "))
	}
	writeDeviceNotes(w, d)
	return nil
}

// nameOf is the study's name on the devices.
func nameOf(d *report.Devices) string {
	if len(d.Devices) == 0 {
		return ""
	}
	return d.Devices[0].Report.Study.Name
}

// hostLine describes a device's hardware and software in one line.
func hostLine(h hostinfo.Host) string {
	s := fmt.Sprintf("%s/%s, %d CPUs (%s), %.1f GiB, kernel %s", h.OS, h.Arch, h.CPUs, h.CPUModel, float64(h.MemTotalBytes)/(1<<30), h.KernelRelease)
	if d := docker.FactsOf(h); d != nil && d.ServerVersion != "" {
		s += fmt.Sprintf(", Docker %s (%s)", d.ServerVersion, d.StorageDriver)
	}
	if h.Device != "" && h.Hostname != "" && h.Hostname != h.Device {
		s += ", hostname " + h.Hostname
	}
	return s
}
