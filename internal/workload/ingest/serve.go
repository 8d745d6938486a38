package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/workload"
)

// serverReport is what the server side answers when the devices are done:
// each node's figures, and what went wrong on its side. The client emits
// them with its own, so a run's figures arrive together or not at all.
type serverReport struct {
	Nodes    []nodeStats `json:"nodes"`
	Problems []string    `json:"problems,omitempty"` // programs that died, nodes that did not answer
}

// Serve implements workload.Sides: it starts redis, the nodes and
// nginx listening at addr, serves until the client posts to /_boxtax/end
// (answering with the nodes' figures) or ctx ends, and stops them all.
func (c *config) Serve(ctx context.Context, addr string, e workload.Emitter) error {
	var err error
	if addr, err = resolvePort(addr); err != nil {
		return err
	}
	if c.target == targetSink {
		return serveSink(ctx, *c, addr, e)
	}
	cpus, err := cpuset.Parse(cpuset.Allowed())
	if err != nil || len(cpus) == 0 {
		if cpus, err = cpuset.Online(); err != nil {
			return err
		}
	}
	sets, err := nodeCPUs(cpus, c.nodes, c.affinity)
	if err != nil {
		return err
	}
	ctl, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("listening for the end of the session: %w", err)
	}
	defer ctl.Close()
	d, err := startDeployment(ctx, deploymentConfig{listen: addr, control: ctl.Addr().String(), nodeCPUs: sets,
		workers: len(cpus), devices: c.devices, streamLen: streamLen, pool: redisPool})
	if err != nil {
		return err
	}
	defer d.stop()
	if deployed != nil {
		deployed(d)
	}
	var pinned []string
	for i, s := range sets {
		pinned = append(pinned, fmt.Sprintf("%d:%s", i+1, s))
	}
	e.Note("node_cpus", strings.Join(pinned, " "))
	e.Note("nginx_workers", strconv.Itoa(len(cpus)))
	if len(cpus) == 1 && c.nodes > 1 {
		e.Note("affinity_moot", fmt.Sprintf("the environment may use one CPU (%s), so dedicated and shared are the same; give it more (the placement factor at shared, or a cpuset)", cpus))
	}
	ended := make(chan struct{})
	var once sync.Once
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != pathEnd || r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		stats, err := d.collect(r.Context())
		rep := serverReport{Nodes: stats, Problems: d.problems()}
		if err != nil {
			rep.Problems = append(rep.Problems, err.Error())
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(rep)
		w.(http.Flusher).Flush()
		once.Do(func() { close(ended) })
	})}
	go srv.Serve(ctl)
	defer srv.Close()
	e.Note(workload.NoteListening, addr)
	select {
	case <-ended:
	case <-ctx.Done():
	}
	if probs := d.problems(); len(probs) > 0 {
		e.Note("problems", strings.Join(probs, "; "))
	}
	return ctx.Err()
}

// deployed, when set (by tests), is called with the deployment once it runs.
var deployed func(*deployment)

// resolvePort picks a free port for addr when it asks for port 0 (nginx
// cannot tell which port it got).
func resolvePort(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("listen address %q: %w", addr, err)
	}
	if port != "0" {
		return addr, nil
	}
	ln, err := net.Listen("tcp4", net.JoinHostPort(host, "0"))
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// serveSink answers every device at once, in this process: a node without
// redis on the address itself. It shows how fast the device simulator can
// go on this machine, so a run against the deployment can be seen not to
// be limited by it.
func serveSink(ctx context.Context, c config, addr string, e workload.Emitter) error {
	n := &node{cfg: nodeConfig{Index: 1}}
	ln, err := net.Listen("tcp4", addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	ended := make(chan struct{})
	var once sync.Once
	mux := http.NewServeMux()
	mux.HandleFunc("POST /devices/{id}/messages", n.message)
	mux.HandleFunc("POST "+pathEnd, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(serverReport{Nodes: []nodeStats{n.figures()}})
		w.(http.Flusher).Flush()
		once.Do(func() { close(ended) })
	})
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	defer srv.Close()
	e.Note("target", targetSink)
	e.Note(workload.NoteListening, ln.Addr().String())
	select {
	case <-ended:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
