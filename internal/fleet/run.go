package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/deploy/ansible"
	"github.com/boxtax/boxtax/internal/lazyre"
)

// Options say what to run where.
type Options struct {
	Study     string   // preset name or YAML file on this machine
	Inventory string   // the Ansible inventory (file, directory or host list)
	Dist      string   // directory of boxtax-linux-ARCH binaries (make build-all)
	Results   string   // directory the device databases are fetched into
	RunArgs   []string // flags for `boxtax run` on every device
	Resume    bool     // continue each device's unfinished study instead
	Limit     string   // Ansible --limit: only these hosts
	Forks     int      // devices at once; 0: Ansible's default
	Playbook  string   // a playbook of one's own; empty: the one shipped with boxtax
	Extra     []string // more ansible-playbook arguments, as given
	// Terminal is the terminal boxtax runs in the foreground of, or nil.
	// Ansible then gets the foreground while it runs, so that it may ask
	// for passwords (--ask-become-pass, --ask-pass, --ask-vault-pass) and
	// Ctrl-C reaches it and its SSH clients.
	Terminal *os.File
	// AnsiblePlaybook is the program to call; empty: ansible-playbook on PATH.
	AnsiblePlaybook string
	Env             []string // the environment for Ansible; nil: this process's
	// Verbose streams Ansible's whole output (every task of every device)
	// to out; without it out gets a line a device as it moves on, and the
	// whole output is in the results directory's ansible.log either way.
	Verbose bool
}

// Device is one device's outcome, as the playbook summarised it.
type Device struct {
	Host     string   `json:"host"`
	Status   string   `json:"status"` // ok, runs-failed, failed, unreachable
	Reason   string   `json:"reason"`
	DB       string   `json:"db"` // the fetched database; empty when none came back
	Arch     string   `json:"arch"`
	Warnings []string `json:"warnings"`
}

// Device statuses.
const (
	StatusOK          = "ok"
	StatusRunsFailed  = "runs-failed" // the study finished, some runs failed
	StatusFailed      = "failed"
	StatusUnreachable = "unreachable"
)

// Summary is results/summary.json.
type Summary struct {
	Schema string   `json:"schema"`
	Study  string   `json:"study"`
	Hosts  []Device `json:"hosts"`
	// AnsibleExit is ansible-playbook's exit status (2: a host failed,
	// 4: a host was unreachable).
	AnsibleExit int `json:"-"`
}

// ErrNoAnsible says ansible-playbook is not installed.
var ErrNoAnsible = errors.New("ansible-playbook not found: install Ansible (Debian: apt-get install ansible-core; elsewhere: pipx install ansible-core)")

// Run calls ansible-playbook with the playbook and the inventory, keeping
// its output in LogPath(o.Results) and writing to out a line a device as
// it moves on (all of the output with o.Verbose), and returns the summary
// the playbook wrote. A device
// that failed is in the summary, not an error; the error is for Ansible
// failing as a whole (a broken inventory, say).
func Run(ctx context.Context, o Options, out io.Writer) (*Summary, error) {
	// The user's own input first: a missing inventory is said as such
	// whether or not Ansible is installed.
	if err := checkInventory(o.Inventory); err != nil {
		return nil, err
	}
	prog := o.AnsiblePlaybook
	if prog == "" {
		p, err := exec.LookPath("ansible-playbook")
		if err != nil {
			return nil, ErrNoAnsible
		}
		prog = p
	}
	dist, err := filepath.Abs(o.Dist)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(dist); err != nil {
		return nil, fmt.Errorf("no binaries for the devices in %s: run make build-all, or pass --dist: %w", o.Dist, err)
	}
	results, err := filepath.Abs(o.Results)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(results, 0o755); err != nil {
		return nil, err
	}
	summaryPath := filepath.Join(results, "summary.json")
	if err := os.Remove(summaryPath); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("removing the last run's summary: %w", err)
	}
	playbook := o.Playbook
	if playbook == "" {
		dir, err := os.MkdirTemp("", "boxtax-ansible-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		if err := ansible.WriteTo(dir); err != nil {
			return nil, fmt.Errorf("writing the playbook: %w", err)
		}
		playbook = filepath.Join(dir, ansible.Playbook)
	}
	vars := map[string]any{
		"boxtax_dist":     dist,
		"boxtax_results":  results,
		"boxtax_resume":   o.Resume,
		"boxtax_run_args": shellJoin(o.RunArgs),
	}
	if o.Study != "" {
		study := o.Study
		if strings.HasSuffix(study, ".yml") || strings.HasSuffix(study, ".yaml") {
			if study, err = filepath.Abs(study); err != nil {
				return nil, err
			}
			if _, err := os.Stat(study); err != nil {
				return nil, fmt.Errorf("study file: %w", err)
			}
		}
		vars["study"] = study
	}
	extra, _ := json.Marshal(vars)
	args := []string{"-i", o.Inventory, "-e", string(extra)}
	if o.Limit != "" {
		// The last play, which writes the summary, runs on localhost: a
		// limit must let it.
		args = append(args, "--limit", o.Limit+",localhost")
	}
	if o.Forks > 0 {
		args = append(args, "--forks", strconv.Itoa(o.Forks))
	}
	// What is printed is the line as run but for the values of the user's
	// extra variables: a password given with -e must not reach a terminal
	// or a CI log.
	shown := append(append(slices.Clone(args), RedactExtraVars(o.Extra)...), playbook)
	args = append(append(args, o.Extra...), playbook)
	cmd := playbookCommand(ctx, o, prog, args, inventoryEnv)
	logPath := LogPath(results)
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, fmt.Errorf("creating the playbook's log: %w", err)
	}
	defer logFile.Close()
	var log bytes.Buffer // for the recap, should the playbook end before its summary
	shownTo := io.Writer(newDeviceProgress(out))
	if o.Verbose {
		shownTo = out
	}
	cmd.Stdout = io.MultiWriter(shownTo, logFile, &log)
	cmd.Stderr = cmd.Stdout
	if o.Terminal != nil {
		// In a process group of its own Ansible is in the background,
		// where reading a password from the terminal stops it (SIGTTIN):
		// the group takes the foreground, and gives it back when done.
		cmd.Stdin = o.Terminal
		cmd.SysProcAttr.Foreground, cmd.SysProcAttr.Ctty = true, int(o.Terminal.Fd())
		defer takeForeground(o.Terminal)
	}
	fmt.Fprintf(io.MultiWriter(out, logFile), "boxtax fleet: %s %s\n", prog, strings.Join(shown, " "))
	runErr := cmd.Run()
	code := 0
	if runErr != nil {
		var ee *exec.ExitError
		if !errors.As(runErr, &ee) {
			return nil, fmt.Errorf("running %s: %w", prog, runErr)
		}
		code = ee.ExitCode()
	}
	if ctx.Err() != nil {
		// The studies run detached on the devices: stopping Ansible
		// leaves them going. Stop them too (issue 42 item 7).
		if o.Terminal != nil {
			takeForeground(o.Terminal)
		}
		stopDevices(context.WithoutCancel(ctx), o, prog, io.MultiWriter(out, logFile))
		return nil, ctx.Err()
	}
	sum, err := ReadSummary(summaryPath)
	if errors.Is(err, os.ErrNotExist) && code != 0 {
		if err := badInventory(o.Inventory, log.String(), "Ansible cannot parse it"); err != nil {
			return nil, err
		}
		// Ansible stops a playbook whose every device failed before the
		// last play: read the outcome from its recap instead.
		sum = recapSummary(log.String())
		err = nil
		if len(sum.Hosts) == 0 {
			err = fmt.Errorf("no device summary and no recap")
		}
	}
	if err != nil {
		return nil, fmt.Errorf("ansible-playbook ended (exit %d) before every device was summarised (its output: %s): %w", code, logPath, err)
	}
	sum.AnsibleExit = code
	if len(sum.Hosts) == 0 {
		// Ansible goes on with an inventory it parsed only in part, or one
		// without hosts, and then has no device to summarise.
		if err := badInventory(o.Inventory, log.String(), "no device Ansible could read"); err != nil {
			return nil, err
		}
	}
	return sum, nil
}

// ReadSummary reads the summary.json the playbook writes.
func ReadSummary(path string) (*Summary, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if s.Schema != "boxtax.fleet/v1" {
		return nil, fmt.Errorf("%s: schema %q, want boxtax.fleet/v1", path, s.Schema)
	}
	return &s, nil
}

// shellJoin quotes arguments for the shell command the playbook runs.
func shellJoin(args []string) string {
	var out []string
	for _, a := range args {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_=.,:/+@%", r))
		}) < 0 {
			out = append(out, a)
			continue
		}
		out = append(out, "'"+strings.ReplaceAll(a, "'", `'"'"'`)+"'")
	}
	return strings.Join(out, " ")
}

// recapLine is one device's line of Ansible's PLAY RECAP.
var recapLine = lazyre.New(`(?m)^(\S+)\s+:\s+ok=\d+\s+changed=\d+\s+unreachable=(\d+)\s+failed=(\d+)`)

// recapSummary makes a summary from the PLAY RECAP of Ansible's output: a
// device that was unreachable or failed is reported so, with the output
// above as its reason; one that did neither did not get to the end.
func recapSummary(output string) *Summary {
	s := &Summary{Schema: "boxtax.fleet/v1"}
	for _, m := range recapLine.Get().FindAllStringSubmatch(output, -1) {
		if m[1] == "localhost" {
			continue
		}
		d := Device{Host: m[1], Status: StatusFailed, Reason: "stopped before the summary: see the playbook's log (" + LogName + " in the results directory)"}
		if m[2] != "0" {
			d.Status = StatusUnreachable
		}
		s.Hosts = append(s.Hosts, d)
	}
	return s
}

// playbookCommand runs prog (ansible-playbook) with args in the
// environment o gives (this process's when nil) and env. Ansible and its
// SSH clients are one process group: a cancelled context (Ctrl-C, a
// deadline) ends all of them, not ansible-playbook alone with its forks
// orphaned.
func playbookCommand(ctx context.Context, o Options, prog string, args []string, env ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = 15 * time.Second
	cmd.Env = o.Env
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(append(cmd.Env, "ANSIBLE_RETRY_FILES_ENABLED=false"), env...)
	return cmd
}
