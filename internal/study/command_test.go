package study

import (
	"reflect"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/errtest"
)

// TestCommandStudyNamesAndFactors: a --cmd study is named after its
// command (issue 27: every one was "cmd"); several --cmd are the factor
// command, named after the shortened commands; --param is a factor that
// sets {NAME}; their cells run the commands substituted.
func TestCommandStudyNamesAndFactors(t *testing.T) {
	one, err := Command{Cmds: []string{"gzip -c /usr/local/go/bin/go"}}.Spec()
	if err != nil || one.Name != "gzip -c go" || len(one.Factors) != 0 {
		t.Fatalf("one command: %v, name %q, factors %v", err, one.Name, one.Factors)
	}
	c := Command{Cmds: []string{"sh -c 'echo {n} a'", "/bin/sh -c 'echo {n} b'", "sh -c 'echo {n} a'"},
		Params: []string{"n=1, 2", "m=x"}, Prepare: "sh -c 'echo {m}'"}
	spec, err := c.Spec()
	if err != nil {
		t.Fatal(err)
	}
	if spec.Name != "sh -c 'echo {n} a' vs sh -c 'echo {n}..." {
		t.Errorf("name %q", spec.Name)
	}
	f := spec.Factors[0]
	wantLevels := []any{"sh -c 'echo {n} a'", "sh -c 'echo {n} b'", "sh -c 'echo {n} a' (2)"}
	if f.Name != CommandFactor || f.Param != "cmd" || !reflect.DeepEqual(f.Levels, wantLevels) || f.Values["sh -c 'echo {n} b'"] != "/bin/sh -c 'echo {n} b'" {
		t.Errorf("command factor %+v", f)
	}
	if p := spec.Factors[1]; p.Name != "n" || p.Param != "placeholders.n" || !reflect.DeepEqual(p.Levels, []any{"1", "2"}) {
		t.Errorf("param factor %+v", p)
	}
	spec.Envs = []Named{{Name: "native"}}
	spec.Normalize(testEnvs)
	if err := spec.Validate(testEnvs); err != nil {
		t.Fatal(err)
	}
	cells, err := spec.Cells()
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 3*2*1 {
		t.Fatalf("%d cells, want 3 commands x 2 values of n x 1 of m", len(cells))
	}
	for _, cell := range cells {
		cmd, _ := cell.Params["cmd"].([]any)
		want := "echo " + cell.Levels["n"] + " " + map[bool]string{true: "b", false: "a"}[strings.Contains(cell.Levels["command"], " b'")]
		prep, _ := cell.Params["prepare"].([]any)
		if len(cmd) != 3 || cmd[2] != want || len(prep) != 3 || prep[2] != "echo x" {
			t.Errorf("cell %s runs %v, prepare %v; want %q", cell.Key(), cmd, prep, want)
		}
	}
}

func TestCommandStudyRefusals(t *testing.T) {
	for _, tc := range []struct {
		c    Command
		want string
	}{
		{Command{Params: []string{"n=1"}}, "--param, --setup, --prepare"},
		{Command{Cmds: []string{"echo"}, Params: []string{"n"}}, "want NAME=V1,V2"},
		{Command{Cmds: []string{"echo"}, Params: []string{"a b=1"}}, `"a b" is not a name`},
		{Command{Cmds: []string{"echo {n}"}, Params: []string{"n=1", "n=2"}}, "the name n is taken"},
		{Command{Cmds: []string{"echo {command}"}, Params: []string{"command=1"}}, "the name command is taken"},
		{Command{Cmds: []string{"echo"}, Prepare: "sh -c 'x"}, "unclosed quote"},
		{Command{Cmds: []string{"echo {n}"}, Params: []string{"n=1,,2"}}, "an empty value"},
		{Command{Cmds: []string{"echo {n}"}, Prepare: "echo {m}", Params: []string{"n=1"}}, "--prepare 'echo {m}': {m} names no parameter; known parameters: n"},
		{Command{Cmds: []string{"echo {n}"}, Params: []string{"n=1", "m=2"}}, "--param m: {m} is in none of the commands"},
		// issue 42, 19: an empty command is said to be empty, not a nameless study
		{Command{Cmds: []string{""}}, "--cmd '': the command is empty"},
		{Command{Cmds: []string{"echo", "  "}}, "--cmd '  ': the command is empty"},
	} {
		_, err := tc.c.Spec()
		errtest.Want(t, err, tc.want)
	}
	_, err := Command{Cmds: []string{"echo {thread}"}, Params: []string{"threads=1,2"}}.Spec()
	errtest.Want(t, err, "--cmd 'echo {thread}': {thread} names no parameter; known parameters: threads")
	// a study file's {NAME} is checked when the spec is validated
	spec, err := ParseSpec("t.yaml", []byte("name: t\nenvs: [native]\nworkloads: [{name: cmd, params: {cmd: 'echo {thread}'}}]\nfactors: [{name: threads, param: placeholders.threads, levels: [1, 2]}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	errtest.Want(t, spec.Normalize(testEnvs).Validate(testEnvs), "{thread} names no parameter; known parameters: threads")
}

// TestFactorValuesAndDottedParams: values must name levels; a dotted
// param keeps the mapping's other keys.
func TestFactorValuesAndDottedParams(t *testing.T) {
	s, err := ParseSpec("t.yaml", []byte(`name: t
envs: [native]
workloads: [{name: cmd, params: {cmd: "echo {a}"}}]
factors:
  - {name: a, param: placeholders.a, levels: [x, y], values: {z: 1}}
`))
	if err != nil {
		t.Fatal(err)
	}
	errtest.Want(t, s.Normalize(testEnvs).Validate(testEnvs), `factor "a": values names "z", which is not one of its levels`)
	params := map[string]any{"placeholders": map[string]any{"b": "1"}}
	setParam(params, "placeholders.a", "2")
	if !reflect.DeepEqual(params["placeholders"], map[string]any{"a": "2", "b": "1"}) || !hasParam(params, "placeholders.b") || hasParam(params, "placeholders.c") {
		t.Errorf("dotted param: %v", params)
	}
}
