package study

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	cmdwl "github.com/boxtax/boxtax/internal/workload/command"
)

// Command is a run of one command instead of a study:
// boxtax run --cmd 'sysbench cpu --time=5 run' --metric 'events/s=events per second:\s*([0-9.]+)'.
type Command struct {
	Cmd, Setup, Parse, Timeout, Image string
	Metrics, Files                    []string
}

// AddFlags declares --cmd and the flags that go with it.
func (c *Command) AddFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.Cmd, "cmd", "", "measure this command (program and arguments, split as a shell would, no shell) instead of a study: natively and in each environment")
	fs.Var((*repeated)(&c.Metrics), "metric", "with --cmd: a figure from its output, NAME[:UNIT][:higher|:lower]=REGEX or NAME=json:PATH (repeatable)")
	fs.Var((*repeated)(&c.Files), "file", "with --cmd: a host file or directory the command needs in a container (repeatable)")
	fs.StringVar(&c.Setup, "setup", "", "with --cmd: a command run before each measured one, not timed (e.g. sysbench fileio prepare)")
	fs.StringVar(&c.Parse, "parse", "", "with --cmd: read a known tool's output: auto (by the program's name), none, "+strings.Join(cmdwl.AdapterNames(), ", "))
	fs.StringVar(&c.Timeout, "cmd-timeout", "", "with --cmd: longest one run may take (default 10m)")
	fs.StringVar(&c.Image, "image", "", "with --cmd: a local Docker/Podman image holding the program, to run it in instead of one made from this host's files")
}

// Used tells whether any of its flags was given.
func (c Command) Used() bool {
	return c.Cmd != "" || c.Setup != "" || c.Parse != "" || c.Timeout != "" || c.Image != "" || len(c.Metrics) > 0 || len(c.Files) > 0
}

// Spec is the study of a --cmd run: the cmd workload natively and in
// Docker with bridge and host networking (--envs changes them), five
// measured repetitions after a warm-up round. It is stored with the study
// as any study file is, so --resume and report read it back.
func (c Command) Spec() (*Spec, error) {
	if c.Cmd == "" {
		return nil, fmt.Errorf("--metric, --file, --setup, --parse, --image and --cmd-timeout go with --cmd")
	}
	if _, err := cmdwl.Split(c.Cmd); err != nil {
		return nil, fmt.Errorf("--cmd: %v", err)
	}
	for _, m := range c.Metrics {
		if _, err := cmdwl.ParseExtract(m); err != nil {
			return nil, fmt.Errorf("--metric: %v", err)
		}
	}
	params := map[string]any{"cmd": c.Cmd}
	for k, v := range map[string]string{"setup": c.Setup, "parse": c.Parse, "timeout": c.Timeout, "image": c.Image} {
		if v != "" {
			params[k] = v
		}
	}
	named, err := c.namedFiles()
	if err != nil {
		return nil, err
	}
	if named.workdir != "" {
		params["workdir"] = named.workdir
	}
	for k, v := range map[string][]string{"files": append(slices.Clone(c.Files), named.files...), "metrics": c.Metrics} {
		if len(v) > 0 {
			list := make([]any, len(v)) // as a YAML file gives a list
			for i, s := range v {
				list[i] = s
			}
			params[k] = list
		}
	}
	warmup := 1
	return &Spec{
		Name: "cmd", Description: "boxtax run --cmd " + cmdwl.Join([]string{c.Cmd}),
		Repetitions: 5, Warmup: &warmup, Baseline: "native",
		Envs:      []Named{{Name: "native"}, {Name: "docker-bridge"}, {Name: "docker-host"}},
		Workloads: []WorkloadSpec{{Name: "cmd", Params: params}},
		file:      "--cmd", planNotes: named.notes,
	}, nil
}

// repeated is a flag given once per value.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, " ") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }
