package cli

import (
	"flag"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	cmdwl "github.com/boxtax/boxtax/internal/workload/command"
)

// cmdFlags are run's flags for measuring one command without a study file:
// boxtax run --cmd 'sysbench cpu --time=5 run' --metric 'events/s=events per second:\s*([0-9.]+)'.
type cmdFlags struct {
	cmd, setup, parse, timeout, image string
	metrics, files                    pathList
}

func (c *cmdFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.cmd, "cmd", "", "measure this command (program and arguments, split as a shell would, no shell) instead of a study: natively and in each environment")
	fs.Var(&c.metrics, "metric", "with --cmd: a figure from its output, NAME[:UNIT][:higher|:lower]=REGEX or NAME=json:PATH (repeatable)")
	fs.Var(&c.files, "file", "with --cmd: a host file or directory the command needs in a container (repeatable)")
	fs.StringVar(&c.setup, "setup", "", "with --cmd: a command run before each measured one, not timed (e.g. sysbench fileio prepare)")
	fs.StringVar(&c.parse, "parse", "", "with --cmd: read a known tool's output: auto (by the program's name), none, "+strings.Join(cmdwl.AdapterNames(), ", "))
	fs.StringVar(&c.timeout, "cmd-timeout", "", "with --cmd: longest one run may take (default 10m)")
	fs.StringVar(&c.image, "image", "", "with --cmd: a local Docker/Podman image holding the program, to run it in instead of one made from this host's files")
}

// used tells whether any of them was given.
func (c *cmdFlags) used() bool {
	return c.cmd != "" || c.setup != "" || c.parse != "" || c.timeout != "" || c.image != "" || len(c.metrics) > 0 || len(c.files) > 0
}

// cmdStudy is the study YAML of a --cmd run: the cmd workload natively and
// in Docker with bridge and host networking (--envs changes them), five
// measured repetitions after a warm-up round. It is stored with the study
// as any study file is, so --resume and report read it back.
func (c *cmdFlags) studyYAML() (string, error) {
	if c.cmd == "" {
		return "", usagef("--metric, --file, --setup, --parse, --image and --cmd-timeout go with --cmd")
	}
	if _, err := cmdwl.Split(c.cmd); err != nil {
		return "", usagef("--cmd: %v", err)
	}
	params := yaml.Node{Kind: yaml.MappingNode}
	add := func(k string, v any) {
		var n yaml.Node
		_ = n.Encode(v)
		params.Content = append(params.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, &n)
	}
	add("cmd", c.cmd)
	if c.setup != "" {
		add("setup", c.setup)
	}
	if len(c.files) > 0 {
		add("files", []string(c.files))
	}
	if len(c.metrics) > 0 {
		for _, m := range c.metrics {
			if _, err := cmdwl.ParseExtract(m); err != nil {
				return "", usagef("--metric: %v", err)
			}
		}
		add("metrics", []string(c.metrics))
	}
	if c.parse != "" {
		add("parse", c.parse)
	}
	if c.timeout != "" {
		add("timeout", c.timeout)
	}
	if c.image != "" {
		add("image", c.image)
	}
	doc := struct {
		Name        string   `yaml:"name"`
		Description string   `yaml:"description"`
		Repetitions int      `yaml:"repetitions"`
		Warmup      int      `yaml:"warmup"`
		Baseline    string   `yaml:"baseline"`
		Envs        []string `yaml:"envs"`
		Workloads   []any    `yaml:"workloads"`
	}{
		Name:        "cmd",
		Description: "boxtax run --cmd " + cmdwl.Join([]string{c.cmd}),
		Repetitions: 5, Warmup: 1, Baseline: "native",
		Envs:      []string{"native", "docker-bridge", "docker-host"},
		Workloads: []any{map[string]any{"name": "cmd", "params": &params}},
	}
	out, err := yaml.Marshal(doc)
	if err != nil {
		return "", fmt.Errorf("writing the --cmd study: %w", err)
	}
	return string(out), nil
}
