package gateway

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// runLoopback is Run: the gateway and its client in this process over
// 127.0.0.1, the gateway's notes prefixed with "server.".
func runLoopback(ctx context.Context, w workload.ClientServer, p workload.Params, e workload.Emitter) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	srv := &serverNotes{listening: make(chan string, 1)}
	served := make(chan error, 1)
	go func() { served <- w.Serve(ctx, p, "127.0.0.1:0", srv) }()
	var addr string
	select {
	case addr = <-srv.listening:
	case err := <-served:
		if err == nil {
			err = errors.New("it ended before listening")
		}
		return fmt.Errorf("server: %w", err)
	case <-ctx.Done():
		return ctx.Err()
	}
	clientErr := w.Client(ctx, p, addr, e)
	if clientErr != nil {
		cancel()
	}
	var serverErr error
	select {
	case serverErr = <-served:
	case <-time.After(10 * time.Second):
		cancel()
		serverErr = errors.Join(errors.New("did not end within 10 s of the client"), <-served)
	}
	srv.flush(e)
	if clientErr != nil {
		return clientErr
	}
	if serverErr != nil && !errors.Is(serverErr, context.Canceled) {
		return fmt.Errorf("server: %w", serverErr)
	}
	return nil
}

// serverNotes keeps what an in-process server reports until it is over, so
// that the client's emitter is never written from two goroutines.
type serverNotes struct {
	listening chan string
	notes     [][2]string
}

func (s *serverNotes) Sample(string, float64) {} // servers report notes only

func (s *serverNotes) Note(key, value string) {
	if key == workload.NoteListening {
		select {
		case s.listening <- value:
		default:
		}
		return
	}
	s.notes = append(s.notes, [2]string{key, value})
}

func (s *serverNotes) flush(e workload.Emitter) {
	for _, kv := range s.notes {
		e.Note("server."+kv[0], kv[1])
	}
}
