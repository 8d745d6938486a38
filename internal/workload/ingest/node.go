package ingest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/workload/latency"
)

// nodeArg0 is the first argument with which the serve worker starts its own
// executable again as an ingest node. Every binary that links this package
// (boxtax, and the test binaries) becomes a node when started so: an OS
// process of its own, so that it can be pinned apart from the others, as
// the seed's nodes were containers pinned with taskset.
const nodeArg0 = "boxtax-ingest-node"

func init() {
	if len(os.Args) == 2 && os.Args[0] == nodeArg0 {
		os.Exit(nodeMain(os.Args[1]))
	}
}

// nodeConfig is what a node is told, as JSON in its one argument.
type nodeConfig struct {
	Index int    `json:"index"`
	Redis string `json:"redis"` // "unix:/path" or host:port
	CPUs  string `json:"cpus"`  // pin to these, "" not at all
	Pool  int    `json:"pool"`  // redis connections at most
	// StreamLen caps each device's stream (XADD MAXLEN ~), so a long run
	// holds the latest messages of each device rather than all of them.
	StreamLen int `json:"stream_len"`
}

// nodeStats is what a node reports at the end of a session: its requests,
// its failures, and its processing times (counts by histogram bucket).
type nodeStats struct {
	Index    int            `json:"index"`
	Requests uint64         `json:"requests"` // measured ones, warm-up excluded
	Errors   uint64         `json:"errors"`
	Counts   latency.Counts `json:"counts"`
	CPUs     string         `json:"cpus"`
}

// Paths and headers of the ingest protocol.
const (
	headerWarmup = "X-Boxtax-Warmup" // set on a device's warm-up messages
	pathStats    = "/_node/stats"
	pathEnd      = "/_boxtax/end"
	pathReady    = "/_boxtax_ready" // nginx answers it itself
)

// nodeMain runs a node until its standard input closes (its parent ended
// or stops it) or it is sent SIGTERM; it prints "listening ADDR" once it
// takes requests. It returns the exit code.
func nodeMain(arg string) int {
	var cfg nodeConfig
	if err := json.Unmarshal([]byte(arg), &cfg); err != nil {
		fmt.Fprintf(os.Stderr, "ingest node: bad configuration %q: %v\n", arg, err)
		return 2
	}
	if cfg.CPUs != "" {
		set, err := cpuset.Parse(cfg.CPUs)
		if err == nil {
			err = cpuset.PinProcess(set)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "ingest node %d: %v\n", cfg.Index, err)
			return 1
		}
		runtime.GOMAXPROCS(len(set))
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	go func() { // the parent closes our stdin to stop us, or dies
		_, _ = io.Copy(io.Discard, os.Stdin)
		stop()
	}()
	if err := runNode(ctx, cfg, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "ingest node %d: %v\n", cfg.Index, err)
		return 1
	}
	return 0
}

// node is one ingest node: an HTTP server that stores each device message
// in redis and times its handling.
type node struct {
	cfg      nodeConfig
	pool     chan *redisConn // idle connections
	slots    chan struct{}   // one per connection that may exist
	hist     latency.Shared
	requests atomic.Uint64
	errors   atomic.Uint64
}

// runNode serves on a free port of 127.0.0.1 until ctx ends, announcing the
// address on out.
func runNode(ctx context.Context, cfg nodeConfig, out io.Writer) error {
	cfg.Pool = max(cfg.Pool, 1)
	n := &node{cfg: cfg, pool: make(chan *redisConn, cfg.Pool), slots: make(chan struct{}, cfg.Pool)}
	for range cfg.Pool {
		n.slots <- struct{}{}
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /devices/{id}/messages", n.message)
	mux.HandleFunc("GET "+pathStats, n.stats)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: time.Minute, ErrorLog: nil}
	if _, err := fmt.Fprintf(out, "listening %s\n", ln.Addr()); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
	case err := <-done:
		return err
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	srv.Close()
	n.closePool()
	return nil
}

// message stores one device message: XADD device:ID MAXLEN ~ N * data BODY.
// The time from the handler's start (the request read) to the reply
// written is its processing time.
func (n *node) message(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	warm := r.Header.Get(headerWarmup) != ""
	var buf [512]byte
	body, err := readBody(r.Body, buf[:])
	if err != nil {
		n.fail(w, warm, http.StatusBadRequest, err)
		return
	}
	if err := n.store(r.PathValue("id"), body); err != nil {
		n.fail(w, warm, http.StatusServiceUnavailable, err)
		return
	}
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusCreated)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	if !warm {
		n.hist.Record(time.Since(start))
		n.requests.Add(1)
	}
}

// readBody reads a small body into buf; a body that does not fit is refused.
func readBody(r io.Reader, buf []byte) ([]byte, error) {
	k, err := io.ReadFull(r, buf)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return buf[:k], nil
	case err != nil:
		return nil, err
	}
	return nil, fmt.Errorf("the message is longer than %d bytes", len(buf)-1)
}

func (n *node) fail(w http.ResponseWriter, warm bool, code int, err error) {
	if !warm {
		n.errors.Add(1)
	}
	http.Error(w, err.Error(), code)
}

// store appends the message to the device's stream in redis.
func (n *node) store(device string, body []byte) error {
	if n.cfg.Redis == "" { // the sink stores nothing
		return nil
	}
	c, err := n.conn()
	if err != nil {
		return err
	}
	var lenBuf [20]byte
	_, err = c.do(time.Now().Add(5*time.Second), []byte("XADD"), append([]byte("device:"), device...),
		[]byte("MAXLEN"), []byte("~"), strconv.AppendInt(lenBuf[:0], int64(n.cfg.StreamLen), 10),
		[]byte("*"), []byte("data"), body)
	var re redisError
	if err != nil && !errors.As(err, &re) { // the connection is broken: drop it
		c.close()
		n.slots <- struct{}{}
		return err
	}
	n.pool <- c
	return err
}

// conn takes an idle redis connection, or makes one when fewer than the
// pool's size exist, or waits for one.
func (n *node) conn() (*redisConn, error) {
	select {
	case c := <-n.pool:
		return c, nil
	default:
	}
	select {
	case c := <-n.pool:
		return c, nil
	case <-n.slots:
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		c, err := dialRedis(ctx, n.cfg.Redis)
		if err != nil {
			n.slots <- struct{}{}
			return nil, err
		}
		return c, nil
	}
}

func (n *node) closePool() {
	for {
		select {
		case c := <-n.pool:
			c.close()
		default:
			return
		}
	}
}

// stats reports what the node measured.
func (n *node) stats(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(n.figures())
}

// figures is what the node measured so far.
func (n *node) figures() nodeStats {
	return nodeStats{Index: n.cfg.Index, Requests: n.requests.Load(), Errors: n.errors.Load(),
		Counts: n.hist.Counts(), CPUs: cpuset.Allowed()}
}

// readListening reads the "listening ADDR" line a node prints.
func readListening(r *bufio.Reader) (string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return "", err
	}
	var addr string
	if _, err := fmt.Sscanf(line, "listening %s", &addr); err != nil {
		return "", fmt.Errorf("unexpected first line %q", line)
	}
	return addr, nil
}
