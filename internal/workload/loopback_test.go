package workload_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

// pair is a ClientServer over a real loopback socket whose server behaves as
// told after its one session.
type pair struct {
	serverErr error // returned by Serve after the session
	hang      bool  // Serve waits for ctx after the session
	clientErr error
}

func (pair) Protocols() []string                                       { return []string{"tcp"} }
func (pair) Run(context.Context, workload.Env, workload.Emitter) error { return nil }

func (w pair) Serve(ctx context.Context, addr string, e workload.Emitter) error {
	ln, err := net.Listen("tcp4", addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	e.Note("version", "1")
	e.Note(workload.NoteListening, ln.Addr().String())
	c, err := ln.Accept()
	if err != nil {
		return err
	}
	buf := make([]byte, 1)
	_, _ = c.Read(buf)
	c.Close()
	if w.hang {
		<-ctx.Done()
		return ctx.Err()
	}
	return w.serverErr
}

func (w pair) Client(_ context.Context, addr string, e workload.Emitter) error {
	c, err := net.Dial("tcp4", addr)
	if err != nil {
		return err
	}
	c.Write([]byte{1})
	c.Close()
	e.Sample("x", 1)
	return w.clientErr
}

func TestRunLoopbackRunsBothSidesAndPrefixesTheServersNotes(t *testing.T) {
	r := &workloadtest.Recorder{}
	if err := workload.RunLoopback(context.Background(), pair{}, r); err != nil {
		t.Fatal(err)
	}
	if len(r.Samples["x"]) != 1 || r.Notes["server.version"] != "1" {
		t.Errorf("samples %d, notes %v", len(r.Samples["x"]), r.Notes)
	}
	if _, ok := r.Notes["server."+workload.NoteListening]; ok {
		t.Errorf("the listening note is not passed on: %v", r.Notes)
	}
}

func TestRunLoopbackErrors(t *testing.T) {
	r := &workloadtest.Recorder{}
	err := workload.RunLoopback(context.Background(), pair{serverErr: errors.New("disk full")}, r)
	if err == nil || err.Error() != "server: disk full" {
		t.Errorf("server failure: %v", err)
	}
	err = workload.RunLoopback(context.Background(), pair{clientErr: errors.New("refused"), hang: true}, &workloadtest.Recorder{})
	if err == nil || err.Error() != "refused" {
		t.Errorf("client failure: %v (the server cancelled for it must not add an error)", err)
	}
}

func TestRunLoopbackStopsAServerThatOutstaysItsClient(t *testing.T) {
	if testing.Short() {
		t.Skip("waits the 10 s grace")
	}
	r := &workloadtest.Recorder{}
	start := time.Now()
	if err := workload.RunLoopback(context.Background(), pair{hang: true}, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Notes["server.stopped"], "was stopped") || time.Since(start) < workload.LoopbackServerGrace {
		t.Errorf("notes %v after %v", r.Notes, time.Since(start))
	}
}
