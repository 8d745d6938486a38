package fleet

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/boxtax/boxtax/deploy/ansible"
	"github.com/boxtax/boxtax/internal/lazyre"
	"github.com/boxtax/boxtax/internal/termtext"
)

// StopTimeout bounds the stopping of the devices' studies after fleet run
// was stopped: Ansible connects to each device again and waits for its
// study to end (a minute at most each, fleet stop).
const StopTimeout = 3 * time.Minute

// stopDevices has every device of o's inventory stop the study it runs
// (the shipped stop.yml: boxtax fleet stop), as fleet run does when it is
// stopped, and says on out what each device did. Ansible's output goes to
// out only with o.Verbose; a line a device otherwise.
func stopDevices(ctx context.Context, o Options, prog string, out io.Writer) {
	ctx, cancel := context.WithTimeout(ctx, StopTimeout)
	defer cancel()
	fmt.Fprintf(out, "boxtax fleet: stopping the study on every device (Ctrl-C again to leave them running)\n")
	dir, err := os.MkdirTemp("", "boxtax-ansible-")
	if err != nil {
		fmt.Fprintf(out, "boxtax fleet: cannot stop the devices' studies: %v; on each device run: boxtax fleet stop --db DB\n", err)
		return
	}
	defer os.RemoveAll(dir)
	if err := ansible.WriteTo(dir); err != nil {
		fmt.Fprintf(out, "boxtax fleet: cannot stop the devices' studies: writing the playbook: %v\n", err)
		return
	}
	args := []string{"-i", o.Inventory}
	if o.Limit != "" {
		args = append(args, "--limit", o.Limit)
	}
	if o.Forks > 0 {
		args = append(args, "--forks", fmt.Sprint(o.Forks))
	}
	args = append(append(args, o.Extra...), filepath.Join(dir, ansible.StopPlaybook))
	cmd := playbookCommand(ctx, o, prog, args)
	var log strings.Builder
	cmd.Stdout = &log
	if o.Verbose {
		cmd.Stdout = io.MultiWriter(out, &log)
	}
	cmd.Stderr = cmd.Stdout
	runErr := cmd.Run()
	said := stopOutcomes(log.String())
	for _, line := range said {
		fmt.Fprintf(out, "  %s\n", line)
	}
	if runErr != nil || len(said) == 0 {
		fmt.Fprintf(out, "boxtax fleet: stopping the devices' studies did not end cleanly (%v); a study may still run on a device: there, boxtax fleet stop --db DB stops it\n", runErr)
	}
}

var (
	// stopDevice starts a device's result in Ansible's output.
	stopDevice = lazyre.New(`^(ok|changed|fatal|failed): \[([^\]]+)\]`)
	// stopSaid is what stop.yml's last task shows of fleet stop's output.
	stopSaid = lazyre.New(`^\s*"msg": "boxtax: (.*)"$`)
)

// stopOutcomes are the lines a device of stop.yml's output: what fleet
// stop said there, or Ansible's failure.
func stopOutcomes(output string) []string {
	var out []string
	host := ""
	for _, line := range strings.Split(output, "\n") {
		if m := stopDevice.Get().FindStringSubmatch(line); m != nil {
			host = m[2]
			if m[1] == "fatal" || m[1] == "failed" {
				out = append(out, host+": "+termtext.Visible(strings.TrimLeft(line[len(m[0]):], ": ")))
			}
			continue
		}
		if m := stopSaid.Get().FindStringSubmatch(line); m != nil && host != "" {
			out = append(out, host+": "+termtext.Visible(m[1]))
		}
	}
	return out
}
