package workload

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// loopbackServerGrace is how long an in-process server may take to end
// after its client's session, as the study gives a server worker.
const loopbackServerGrace = 10 * time.Second

// RunLoopback is Run for a ClientServer workload: both sides in this
// process over 127.0.0.1, the server's notes prefixed with "server." as by FromServer. A
// server that does not end within 10 s of its client is stopped and noted
// ("server.stopped"), not failed, as the study treats a server worker.
func RunLoopback(ctx context.Context, w Sides, e Emitter) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	srv := NewServerNotes()
	served := make(chan error, 1)
	go func() { served <- w.Serve(ctx, "127.0.0.1:0", srv) }()
	var addr string
	select {
	case addr = <-srv.Listening:
	case err := <-served:
		if err == nil {
			err = errors.New("it ended before listening")
		}
		return fmt.Errorf("server: %w", err)
	case <-ctx.Done():
		return ctx.Err()
	}
	clientErr := w.Client(WithSharedCPUs(ctx), addr, e) // with its server
	if clientErr != nil {
		cancel()
	}
	var serverErr error
	select {
	case serverErr = <-served:
	case <-time.After(loopbackServerGrace):
		cancel()
		<-served
		srv.Note("stopped", fmt.Sprintf("did not end within %v of its client and was stopped", loopbackServerGrace))
	}
	srv.Flush(e)
	if clientErr != nil {
		return clientErr
	}
	// A server cancelled because its client failed has nothing to add.
	if serverErr != nil && !(errors.Is(serverErr, context.Canceled) && ctx.Err() != nil) {
		return fmt.Errorf("server: %w", serverErr)
	}
	return nil
}

// ServerNotes is the Emitter of a server side run in this process: it
// passes the address of the NoteListening note on Listening and keeps the
// other notes until Flush, so that the client's emitter is never written
// from two goroutines. A server reports notes only; samples are dropped.
type ServerNotes struct {
	Listening chan string

	mu    sync.Mutex
	notes [][2]string
}

// NewServerNotes returns an empty ServerNotes.
func NewServerNotes() *ServerNotes { return &ServerNotes{Listening: make(chan string, 1)} }

// Sample implements Emitter; a server's figures reach its client instead.
func (s *ServerNotes) Sample(string, float64) {}

// Note implements Emitter.
func (s *ServerNotes) Note(key, value string) {
	if key == NoteListening {
		select {
		case s.Listening <- value:
		default:
		}
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notes = append(s.notes, [2]string{key, value})
}

// Flush emits the kept notes on e as FromServer names them: server.<key>.
func (s *ServerNotes) Flush(e Emitter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, kv := range s.notes {
		m, _ := FromServer(Message{Kind: KindNote, Key: kv[0], Text: kv[1]})
		e.Note(m.Key, m.Text)
	}
	s.notes = nil
}
