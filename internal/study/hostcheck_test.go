package study

import (
	"errors"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/errtest"
	"github.com/boxtax/boxtax/internal/workload"
)

// needsTool, test.needs, is a workload whose host program is missing when
// its parameter tool says "missing".
var needsTool = oneParam{fake{"test.needs"}, workload.Param{Name: "tool", Default: "present"},
	func(p workload.Params) (workload.Config, error) {
		tool, err := p.String("tool")
		return needsToolConfig{tool: tool}, err
	}}

// needsToolConfig is needsTool's config.
type needsToolConfig struct {
	fake
	tool string
}

func (c needsToolConfig) CheckHost() error {
	if c.tool == "missing" {
		return errors.New("needs /usr/bin/missing-tool, which is not installed here: apt-get install missing-tool")
	}
	return nil
}

func init() { workload.Register(needsTool) }

// TestCheckHostRefusesMissingPrograms: issue 15 item 14, a workload whose
// host programs are missing failed its runs one by one instead of being
// refused before the study starts, with the package to install.
func TestCheckHostRefusesMissingPrograms(t *testing.T) {
	s := validSpec(t, "s.yaml", "name: x\nenvs: [native]\nworkloads:\n  - test.a\n  - name: test.needs\n    params: {tool: missing}\n")
	err := s.CheckHost()
	if err == nil || !strings.Contains(err.Error(), "s.yaml:5:5: workload test.needs: needs /usr/bin/missing-tool") || !strings.Contains(err.Error(), "apt-get install missing-tool") {
		t.Fatalf("CheckHost = %v", err)
	}
	ok, _ := ParseSpec("s.yaml", []byte("name: x\nenvs: [native]\nworkloads: [test.a, test.needs]\n"))
	if err := ok.Normalize(testEnvs).Validate(testEnvs); err != nil {
		t.Fatal(err)
	}
	if err := ok.CheckHost(); err != nil {
		t.Fatalf("nothing is missing: %v", err)
	}
}

// TestCheckHostCommandNotFound: issue 42, 19: a --cmd program that is not
// on this host is said so, without the advice to leave a workload out with
// --workloads, which a --cmd study has no use for.
func TestCheckHostCommandNotFound(t *testing.T) {
	spec, err := Command{Cmds: []string{"boxtax-no-such-program-42"}}.Spec()
	if err != nil {
		t.Fatal(err)
	}
	err = spec.Normalize(testEnvs).Validate(testEnvs)
	if err == nil {
		err = spec.CheckHost()
	}
	errtest.Want(t, err, `program "boxtax-no-such-program-42" is not on this host: not found in PATH`)
	if strings.Contains(err.Error(), "--workloads") {
		t.Errorf("a --cmd study is told about --workloads: %v", err)
	}
}
