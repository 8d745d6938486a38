package workload

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// pair is a ClientServer over a real loopback socket whose server behaves as
// told after its one session.
type pair struct {
	serverErr error // returned by Serve after the session
	hang      bool  // Serve waits for ctx after the session
	clientErr error
}

func (pair) Info() Info                                      { return Info{Name: "test.pair"} }
func (pair) Protocols(Params) []string                       { return []string{"tcp"} }
func (pair) Run(context.Context, Params, Env, Emitter) error { return nil }

func (w pair) Serve(ctx context.Context, _ Params, addr string, e Emitter) error {
	ln, err := net.Listen("tcp4", addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	e.Note("version", "1")
	e.Note(NoteListening, ln.Addr().String())
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

func (w pair) Client(_ context.Context, _ Params, addr string, e Emitter) error {
	c, err := net.Dial("tcp4", addr)
	if err != nil {
		return err
	}
	c.Write([]byte{1})
	c.Close()
	e.Sample("x", 1)
	return w.clientErr
}

type rec struct {
	mu      sync.Mutex
	notes   map[string]string
	samples int
}

func (r *rec) Sample(string, float64) { r.mu.Lock(); r.samples++; r.mu.Unlock() }
func (r *rec) Note(k, v string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.notes == nil {
		r.notes = map[string]string{}
	}
	r.notes[k] = v
}

func TestRunLoopbackRunsBothSidesAndPrefixesTheServersNotes(t *testing.T) {
	r := &rec{}
	if err := RunLoopback(context.Background(), pair{}, nil, r); err != nil {
		t.Fatal(err)
	}
	if r.samples != 1 || r.notes["server.version"] != "1" {
		t.Errorf("samples %d, notes %v", r.samples, r.notes)
	}
	if _, ok := r.notes["server."+NoteListening]; ok {
		t.Errorf("the listening note is not passed on: %v", r.notes)
	}
}

func TestRunLoopbackErrors(t *testing.T) {
	r := &rec{}
	err := RunLoopback(context.Background(), pair{serverErr: errors.New("disk full")}, nil, r)
	if err == nil || err.Error() != "server: disk full" {
		t.Errorf("server failure: %v", err)
	}
	err = RunLoopback(context.Background(), pair{clientErr: errors.New("refused"), hang: true}, nil, &rec{})
	if err == nil || err.Error() != "refused" {
		t.Errorf("client failure: %v (the server cancelled for it must not add an error)", err)
	}
}

func TestRunLoopbackStopsAServerThatOutstaysItsClient(t *testing.T) {
	if testing.Short() {
		t.Skip("waits the 10 s grace")
	}
	r := &rec{}
	start := time.Now()
	if err := RunLoopback(context.Background(), pair{hang: true}, nil, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.notes["server.stopped"], "was stopped") || time.Since(start) < loopbackServerGrace {
		t.Errorf("notes %v after %v", r.notes, time.Since(start))
	}
}
