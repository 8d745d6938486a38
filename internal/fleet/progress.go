package fleet

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/boxtax/boxtax/internal/lazyre"
	"github.com/boxtax/boxtax/internal/termtext"
)

// LogName is the file in the results directory that keeps the whole of
// ansible-playbook's output of the last fleet run.
const LogName = "ansible.log"

// LogPath is the log of a fleet run whose results go to results.
func LogPath(results string) string { return filepath.Join(results, LogName) }

// Ansible's default output: a task's heading, then a line a device.
var (
	taskLine   = lazyre.New(`^TASK \[(?:[^:\]]+ : )?(.*)\] \**$`)
	deviceLine = lazyre.New(`^(ok|changed|fatal|failed|skipping): \[([^\]]+)\](?:: (FAILED!|UNREACHABLE!))?(?: => (.*))?$`)
)

// phases are the steps of the shipped playbook a device's line reports,
// by the first words of their tasks' names (deploy/ansible/roles/boxtax/
// tasks/main.yml, where most are set_fact markers of boxtax_step); other
// tasks say nothing until they fail.
var phases = []struct{ task, phase string }{
	{"Gather the facts", "connected"}, // the first task that connects
	{"Copy the binary", "installing boxtax"},
	{"Run the study", "running the study"},
	{"Wait for the study", "running the study"},
	{"Fetch the database", "fetching its database"},
	{"Done", "done"},
}

// deviceProgress turns Ansible's output into a line a device each time it
// moves on (connected, installing boxtax, running the study, fetching its
// database, done) or fails (the task and Ansible's message).
type deviceProgress struct {
	out   io.Writer
	task  string
	phase map[string]string // device: the last phase said
}

func newDeviceProgress(out io.Writer) io.Writer {
	p := &deviceProgress{out: out, phase: map[string]string{}}
	return termtext.Lines(func(l string) error {
		p.line(strings.TrimRight(l, "\r"))
		return nil
	})
}

func (p *deviceProgress) line(l string) {
	if m := taskLine.Get().FindStringSubmatch(l); m != nil {
		p.task = m[1]
		return
	}
	m := deviceLine.Get().FindStringSubmatch(l)
	if m == nil {
		return
	}
	status, host, failure, detail := m[1], termtext.Visible(m[2]), m[3], m[4]
	if host == "localhost" {
		return
	}
	switch {
	case failure == "UNREACHABLE!":
		fmt.Fprintf(p.out, "%s: unreachable: %s\n", host, ansibleMessage(detail))
		p.phase[host] = "unreachable"
	case status == "fatal" || status == "failed":
		fmt.Fprintf(p.out, "%s: failed at %q: %s\n", host, termtext.Visible(p.task), ansibleMessage(detail))
		p.phase[host] = "failed"
	case status == "ok" || status == "changed":
		for _, ph := range phases {
			if strings.HasPrefix(p.task, ph.task) && p.phase[host] != ph.phase {
				p.phase[host] = ph.phase
				fmt.Fprintf(p.out, "%s: %s\n", host, ph.phase)
			}
		}
	}
}

// ansibleMessage is the message of Ansible's result JSON (msg, else the
// standard error's end), on one line and at most 200 characters.
func ansibleMessage(detail string) string {
	var r struct {
		Msg    any    `json:"msg"`
		Stderr string `json:"stderr"`
	}
	msg := detail
	if json.Unmarshal([]byte(detail), &r) == nil {
		switch {
		case r.Stderr != "":
			msg = r.Stderr
		case r.Msg != nil:
			msg = fmt.Sprint(r.Msg)
		}
	}
	msg = termtext.Visible(strings.Join(strings.Fields(msg), " "))
	if len(msg) > 200 {
		msg = msg[:197] + "..."
	}
	if msg == "" {
		msg = "(no message)"
	}
	return msg
}
