package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
)

// scripted is an environment whose worker writes fixed lines, exits with
// exitErr, or, with hold, runs until stopped.
type scripted struct {
	stdout, stderr string
	exitErr        error
	startErr       error
	hold           bool
}

func (s *scripted) Name() string                    { return "scripted" }
func (s *scripted) Description() string             { return "scripted test environment" }
func (s *scripted) Available(context.Context) error { return nil }
func (s *scripted) Prepare(context.Context) error   { return nil }
func (s *scripted) Start(_ context.Context, _ env.Spec, stdout, stderr io.Writer) (env.Instance, error) {
	if s.startErr != nil {
		return nil, s.startErr
	}
	inst := &scriptedInstance{stopped: make(chan struct{}), exited: make(chan struct{}), err: s.exitErr, hold: s.hold}
	go func() {
		io.WriteString(stdout, s.stdout)
		io.WriteString(stderr, s.stderr)
		close(inst.exited)
	}()
	return inst, nil
}

type scriptedInstance struct {
	stopped, exited chan struct{}
	err             error
	hold            bool
}

func (i *scriptedInstance) Settings() env.Settings { return env.Settings{"env": "scripted"} }
func (i *scriptedInstance) Wait() error {
	<-i.exited
	if i.hold {
		<-i.stopped
		return errors.New("killed")
	}
	return i.err
}
func (i *scriptedInstance) Stop(context.Context) error {
	select {
	case <-i.stopped:
	default:
		close(i.stopped)
	}
	return nil
}

func lines(ms ...string) string { return strings.Join(ms, "\n") + "\n" }

func TestRunReadsEveryKindOfLine(t *testing.T) {
	e := &scripted{stdout: lines(`{"kind":"hello","unix_ns":1}`, `{"kind":"sample","metric":"rate","value":2}`,
		`{"kind":"series","series":"lat","unit":"ns","packed":"`+workload.PackFloat64s([]float64{1, 2})+`"}`,
		`{"kind":"note","key":"k","text":"v"}`, `not json`, `{"kind":"done"}`), stderr: "a warning"}
	out := Run(context.Background(), e, env.Spec{})
	var kinds []string
	for _, m := range out.Messages {
		kinds = append(kinds, m.Kind)
	}
	if got := strings.Join(kinds, " "); got != "hello sample series note text done" {
		t.Errorf("kinds %s", got)
	}
	if out.Err != nil || out.DecodeErr != nil || out.Settings["env"] != "scripted" || out.Stderr != "; stderr: a warning" {
		t.Errorf("output %+v", out)
	}
}

func TestRunSaysWhyTheWorkerFailed(t *testing.T) {
	out := Run(context.Background(), &scripted{exitErr: errors.New("exit status 3"), stderr: "panic: x"}, env.Spec{})
	if out.Err == nil || out.Err.Error() != "exit status 3" || out.Stderr != "; stderr: panic: x" {
		t.Errorf("a failed worker: %+v", out)
	}
	out = Run(context.Background(), &scripted{startErr: errors.New("no image")}, env.Spec{})
	if out.Err == nil || out.Err.Error() != "no image" || out.Settings != nil {
		t.Errorf("a worker that did not start: %+v", out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if out := Run(ctx, &scripted{hold: true}, env.Spec{}); !errors.Is(out.Err, context.Canceled) {
		t.Errorf("an interrupted run: %v", out.Err)
	}
}

func TestStartStreamsHelloAndListening(t *testing.T) {
	ctx := context.Background()
	p, err := Start(ctx, &scripted{hold: true, stdout: lines(`{"kind":"hello"}`, `{"kind":"note","key":"listening","text":"127.0.0.1:9"}`)}, env.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	testenv.Receive(t, p.Hello(), 5*time.Second, "no hello")
	if err := p.AwaitListening(ctx, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if p.FirstOutput().Before(p.Requested()) {
		t.Errorf("first output %v before the start %v", p.FirstOutput(), p.Requested())
	}
	out := p.EndServer(ctx, 10*time.Millisecond)
	if n := len(out.Messages); n != 3 || out.Messages[2].Key != "stopped" || out.Err != nil {
		t.Errorf("a server stopped after its grace: %+v", out)
	}

	p, err = Start(ctx, &scripted{exitErr: errors.New("exit status 1"), stdout: lines(`{"kind":"error","text":"address already in use"}`)}, env.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	// Its error line may or may not be read by the time its exit is seen.
	if err := p.AwaitListening(ctx, 5*time.Second); err == nil || !strings.Contains(err.Error(), "ended before listening") {
		t.Errorf("a server that ended before listening: %v", err)
	}
	if out := p.EndServer(ctx, 5*time.Second); out.Err == nil || len(out.Messages) != 1 {
		t.Errorf("a server that failed by itself: %+v", out)
	}
	// No grace at all: a server that has already ended keeps its error
	// (the zero timer and the exit must not be a coin toss).
	for i := 0; i < 20; i++ {
		p, err = Start(ctx, &scripted{exitErr: errors.New("exit status 1")}, env.Spec{})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.AwaitListening(ctx, 5*time.Second); err == nil {
			t.Fatal("a server that ended was awaited as listening")
		}
		if out := p.EndServer(ctx, 0); out.Err == nil {
			t.Fatalf("try %d: an ended server's error was dropped with no grace: %+v", i, out)
		}
	}
	_, err = Start(ctx, &scripted{startErr: fmt.Errorf("no such image")}, env.Spec{})
	if err == nil {
		t.Error("a start that failed returned no error")
	}
}

func TestInstancesTagsEachInstance(t *testing.T) {
	one := Output{Messages: []workload.Message{{Kind: workload.KindSample, Metric: "rate", Value: 1}}, Settings: env.Settings{"pid": "1"}}
	two := Output{Messages: []workload.Message{{Kind: workload.KindSample, Metric: "rate", Value: 2}}, Settings: env.Settings{"pid": "2"},
		Err: errors.New("exit status 1"), Stderr: "; stderr: boom"}
	out := Instances([]Output{one, two})
	if out.Messages[0].Instance != 1 || out.Messages[1].Instance != 2 {
		t.Errorf("instances %+v", out.Messages)
	}
	if out.Settings["instances"] != "2" || out.Settings["instance1.pid"] != "1" || out.Settings["instance2.pid"] != "2" {
		t.Errorf("settings %v", out.Settings)
	}
	if out.Err == nil || out.Err.Error() != "instance 2: exit status 1" || out.Stderr != "; instance 2; stderr: boom" {
		t.Errorf("err %v, stderr %q", out.Err, out.Stderr)
	}
}
