package worker

import (
	"flag"
	"io"
	"testing"
)

// TestArgsAreReadBackByAddFlags: the controller's command line and the
// worker's flags are the same ones.
func TestArgsAreReadBackByAddFlags(t *testing.T) {
	for _, inv := range []Invocation{
		{Workload: "cpu.prime", Params: `{"threads":2}`},
		{Workload: "net.tcp", Params: `{}`, Serve: "0.0.0.0:5201", CPUs: "0-1"},
		{Workload: "net.tcp", Params: `null`, Client: "127.0.0.1:5201", Scratch: "/tmp/x"},
		{Workload: "http.gateway", Params: `{}`, Client: "127.0.0.1:80", SharedCPUs: true},
	} {
		args := inv.Args()
		if args[0] != Command {
			t.Fatalf("%v does not start with %s", args, Command)
		}
		var got Invocation
		fs := flag.NewFlagSet(Command, flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		got.AddFlags(fs)
		if err := fs.Parse(args[1:]); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if got != inv {
			t.Errorf("%v read back as %+v, want %+v", args, got, inv)
		}
		// A native environment adds the pin flag after the arguments.
		spec := inv.Spec()
		got = Invocation{}
		fs = flag.NewFlagSet(Command, flag.ContinueOnError)
		got.AddFlags(fs)
		if err := fs.Parse(append(spec.Args[1:], spec.PinFlag, "3")); err != nil || got.CPUs != "3" {
			t.Errorf("%v %s 3: CPUs %q, %v", spec.Args, spec.PinFlag, got.CPUs, err)
		}
	}
}

func TestNewEncodesTheParameters(t *testing.T) {
	inv, err := New("cpu.prime", map[string]any{"threads": 2})
	if err != nil || inv.Workload != "cpu.prime" || inv.Params != `{"threads":2}` {
		t.Errorf("New: %+v, %v", inv, err)
	}
	if _, err := New("x", map[string]any{"f": func() {}}); err == nil {
		t.Error("parameters that are not JSON were accepted")
	}
}
