package gateway

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// gatewayServer is the device gateway: the agent's latest reading over
// HTTP, on Go's net/http as LinkSmart's Device Gateway.
type gatewayServer struct {
	agent    *agent
	served   atomic.Int64 // readings served
	accepted atomic.Int64 // TCP connections accepted

	sessionOnce sync.Once
	sessionOver chan struct{} // closed when the client's session connection closed
	sessions    atomic.Int32
}

var (
	contentTypeValue = []string{ContentType}
	cacheValue       = []string{"no-cache"}
)

func (s *gatewayServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case ReadingPath:
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		body := s.agent.latest()
		h := w.Header()
		h["Content-Type"] = contentTypeValue
		h["Cache-Control"] = cacheValue
		h["Content-Length"] = []string{strconv.Itoa(len(body))}
		if r.Method == http.MethodGet {
			_, _ = w.Write(body)
		}
		s.served.Add(1)
	case SessionPath:
		s.session(w, r)
	default:
		http.NotFound(w, r)
	}
}

// session holds the client's session request open until the client closes
// its connection: then the gateway's work is done.
func (s *gatewayServer) session(w http.ResponseWriter, r *http.Request) {
	if s.sessions.Add(1) != 1 {
		http.Error(w, "this gateway serves one boxtax session and has one", http.StatusConflict)
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte("session\n"))
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	<-r.Context().Done()
	s.sessionOnce.Do(func() { close(s.sessionOver) })
}

// serve runs the gateway at addr until the client's session is over or ctx
// ends, and notes what it did.
func serve(ctx context.Context, c config, addr string, e workload.Emitter) error {
	a := newAgent(c.agent, c.period)
	stopAgent, err := a.start(ctx)
	if err != nil {
		return err
	}
	defer stopAgent()
	ln, err := net.Listen("tcp4", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("cannot listen on %s: the port is in use by another program; free it or let boxtax pick a port", addr)
		}
		return fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	s := &gatewayServer{agent: a, sessionOver: make(chan struct{})}
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ConnState: func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				s.accepted.Add(1)
			}
		},
		ErrorLog: nil,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	e.Note(workload.NoteListening, ln.Addr().String())
	var serveErr error
	select {
	case <-s.sessionOver:
	case <-ctx.Done():
	case serveErr = <-served:
	}
	_ = srv.Close()
	if serveErr == nil {
		<-served
	}
	stopAgent()
	e.Note("agent", c.agent.String())
	e.Note("agent_period", c.period.String())
	e.Note("agent_readings", strconv.FormatInt(a.updates.Load(), 10))
	if n := a.failed.Load(); n > 0 {
		e.Note("agent_failures", strconv.FormatInt(n, 10))
		e.Note("agent_last_error", a.lastError().Error())
	}
	e.Note("body_bytes", strconv.Itoa(len(a.latest())))
	e.Note("requests_served", strconv.FormatInt(s.served.Load(), 10))
	e.Note("connections_accepted", strconv.FormatInt(s.accepted.Load(), 10))
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return fmt.Errorf("serving HTTP: %w", serveErr)
	}
	return ctx.Err()
}
