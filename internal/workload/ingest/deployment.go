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
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"text/template"
	"time"

	"github.com/boxtax/boxtax/internal/hostprog"
)

// The real programs of the server side.
const (
	redisServer = "/usr/bin/redis-server"
	nginxBin    = "/usr/sbin/nginx"
)

// deploymentConfig says what to start.
type deploymentConfig struct {
	listen    string   // where nginx listens (host:port)
	control   string   // where nginx sends /_boxtax/ (the serve worker), host:port
	nodeCPUs  []string // one per node: its CPU set
	workers   int      // nginx worker processes
	devices   int      // for nginx's connection and file limits
	streamLen int
	pool      int // redis connections per node
}

// deployment is the running server side: redis, the nodes, nginx.
type deployment struct {
	dir   string
	redis *hostprog.Process
	nodes []*ingestNode
	nginx *hostprog.Process
}

// ingestNode is a running node process and where it listens.
type ingestNode struct {
	*hostprog.Process
	addr string
	cpus string
}

// startDeployment starts redis, then the nodes, then nginx in front of
// them, each ready before the next. On failure everything started is
// stopped again.
func startDeployment(ctx context.Context, cfg deploymentConfig) (_ *deployment, err error) {
	dir, err := os.MkdirTemp("", "boxtax-ingest-")
	if err != nil {
		return nil, fmt.Errorf("making a directory for redis and nginx: %w (set TMPDIR to a writable place)", err)
	}
	d := &deployment{dir: dir}
	defer func() {
		if err != nil {
			d.stop()
		}
	}()
	if err := d.startRedis(ctx); err != nil {
		return nil, err
	}
	for i, cpus := range cfg.nodeCPUs {
		n, err := d.startNode(ctx, nodeConfig{Index: i + 1, Redis: d.redisAddr(), CPUs: cpus, Pool: cfg.pool, StreamLen: cfg.streamLen})
		if err != nil {
			return nil, err
		}
		d.nodes = append(d.nodes, n)
	}
	if err := d.startNginx(ctx, cfg); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *deployment) redisAddr() string { return "unix:" + filepath.Join(d.dir, "redis.sock") }

// startRedis starts redis-server on a unix socket in the deployment's
// directory (no TCP port to collide with other runs), without persistence.
func (d *deployment) startRedis(ctx context.Context) error {
	sock := filepath.Join(d.dir, "redis.sock")
	cmd := exec.Command(redisServer, "--port", "0", "--unixsocket", sock, "--unixsocketperm", "700",
		"--save", "", "--appendonly", "no", "--dir", d.dir, "--daemonize", "no", "--loglevel", "warning",
		"--maxclients", "10000")
	cmd.Dir = d.dir
	p, err := hostprog.Start("redis-server", cmd)
	if err != nil {
		return err
	}
	d.redis = p
	return p.WaitReady(ctx, 10*time.Second, func() error {
		c, err := dialRedis(ctx, d.redisAddr())
		if err != nil {
			return err
		}
		defer c.close()
		_, err = c.doStrings("PING")
		return err
	})
}

// startNode starts this executable again as a node (see nodeArg0) and
// waits for the address it listens at.
func (d *deployment) startNode(ctx context.Context, cfg nodeConfig) (*ingestNode, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this executable to start the nodes: %w", err)
	}
	arg, _ := json.Marshal(cfg)
	cmd := &exec.Cmd{Path: self, Args: []string{nodeArg0, string(arg)}, Dir: d.dir}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p, err := hostprog.Start(fmt.Sprintf("node %d", cfg.Index), cmd)
	if err != nil {
		return nil, err
	}
	_ = stdin // kept open: the node ends when it closes (see stop)
	n := &ingestNode{Process: p, cpus: cfg.CPUs}
	got := make(chan error, 1)
	go func() {
		addr, err := readListening(bufio.NewReader(stdout))
		n.addr = addr
		got <- err
	}()
	select {
	case err = <-got:
	case <-time.After(10 * time.Second):
		err = errors.New("it did not listen within 10 s")
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		p.Stop(syscall.SIGKILL, 0)
		return nil, fmt.Errorf("starting ingest node %d: %w (%s)", cfg.Index, err, p.Output())
	}
	return n, nil
}

// nginxConf is parsed on first use, not at init: every boxtax process
// links this package (issue 40).
var nginxConf = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("nginx").Parse(`# made by boxtax for iot.ingest
daemon off;
master_process on;
worker_processes {{.Workers}};
worker_rlimit_nofile {{.Files}};
pid {{.Dir}}/nginx.pid;
error_log stderr warn;
{{if .Root}}user root;
{{end}}
events {
    worker_connections {{.Connections}};
}

http {
    access_log off;
    client_body_temp_path {{.Dir}}/client_body;
    proxy_temp_path {{.Dir}}/proxy;
{{- range .TempPaths}}
    {{.}}_temp_path {{$.Dir}}/{{.}};
{{- end}}
    keepalive_requests 1000000;
    keepalive_timeout 600s;

    upstream nodes {
{{- range .Nodes}}
        server {{.}};
{{- end}}
        keepalive {{.Keepalive}};
        keepalive_requests 1000000;
        keepalive_timeout 600s;
    }

    server {
        listen {{.Listen}} backlog=9000;
        location / {
            proxy_pass http://nodes;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
        }
        location /_boxtax/ {
            proxy_pass http://{{.Control}};
            proxy_read_timeout 120s;
        }
        location = {{.ReadyPath}} {
            return 200 "{{.Dir}}";
        }
    }
}
`))
})

// startNginx writes nginx's configuration and starts it in the foreground:
// round-robin over the nodes (nginx's default), keep-alive connections to
// them, worker connections and backlog 9000 as in the seed (more
// connections when the devices need them: see nginxConnections).
func (d *deployment) startNginx(ctx context.Context, cfg deploymentConfig) error {
	var nodes []string
	for _, n := range d.nodes {
		nodes = append(nodes, n.addr)
	}
	v, _ := exec.Command(nginxBin, "-V").CombinedOutput()
	var temps []string
	for _, m := range []string{"fastcgi", "uwsgi", "scgi"} {
		if !strings.Contains(string(v), "--without-http_"+m+"_module") {
			temps = append(temps, m)
		}
	}
	conf := filepath.Join(d.dir, "nginx.conf")
	f, err := os.Create(conf)
	if err != nil {
		return err
	}
	err = nginxConf().Execute(f, map[string]any{
		"Workers": max(cfg.workers, 1), "Files": nginxFiles(cfg.devices), "Connections": nginxConnections(cfg.devices), "Dir": d.dir, "Root": os.Geteuid() == 0,
		"TempPaths": temps, "Nodes": nodes, "Keepalive": cfg.devices + 16, "Listen": cfg.listen, "Control": cfg.control, "ReadyPath": pathReady,
	})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", conf, err)
	}
	cmd := exec.Command(nginxBin, "-p", d.dir, "-c", conf, "-e", "stderr")
	cmd.Dir = d.dir
	p, err := hostprog.Start("nginx", cmd)
	if err != nil {
		return err
	}
	d.nginx = p
	host, port, _ := net.SplitHostPort(cfg.listen)
	if host == "0.0.0.0" || host == "" {
		host = "127.0.0.1"
	}
	// Ready when this nginx answers with this run's directory: another
	// program that took the port meanwhile would answer otherwise.
	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	err = p.WaitReady(ctx, 10*time.Second, func() error {
		resp, err := client.Get("http://" + net.JoinHostPort(host, port) + pathReady)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		if string(b) != d.dir {
			return fmt.Errorf("%s answers %s %q, not this run's nginx", cfg.listen, resp.Status, b)
		}
		return nil
	})
	if err != nil && strings.Contains(p.Output(), "Address already in use") {
		return fmt.Errorf("nginx cannot listen on %s: the port is in use by another program; free it or let boxtax pick a port", cfg.listen)
	}
	return err
}

// collect asks every live node for what it measured; the nodes that died
// or do not answer are named in the error, the others' figures returned.
func (d *deployment) collect(ctx context.Context) ([]nodeStats, error) {
	var out []nodeStats
	var errs []error
	client := &http.Client{Timeout: 10 * time.Second}
	for i, n := range d.nodes {
		if !n.Alive() {
			continue // problems names it
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+n.addr+pathStats, nil)
		resp, err := client.Do(req)
		if err != nil {
			errs = append(errs, fmt.Errorf("node %d: %w", i+1, err))
			continue
		}
		var s nodeStats
		err = json.NewDecoder(resp.Body).Decode(&s)
		resp.Body.Close()
		if err != nil {
			errs = append(errs, fmt.Errorf("node %d: reading its figures: %w", i+1, err))
			continue
		}
		out = append(out, s)
	}
	return out, errors.Join(errs...)
}

// problems names the programs that died before they were stopped.
func (d *deployment) problems() []string {
	var out []string
	if d.redis != nil {
		if msg := d.redis.Died(); msg != "" {
			out = append(out, "redis-server: "+msg)
		}
	}
	for i, n := range d.nodes {
		if msg := n.Died(); msg != "" {
			out = append(out, fmt.Sprintf("node %d: %s", i+1, msg))
		}
	}
	if d.nginx != nil {
		if msg := d.nginx.Died(); msg != "" {
			out = append(out, "nginx: "+msg)
		}
	}
	return out
}

// stop stops nginx, then the nodes, then redis, reaps them all, and
// removes the directory.
func (d *deployment) stop() {
	if d.nginx != nil {
		// Graceful: the answer to the end of the session is let out
		// first; the master ends its workers.
		d.nginx.Stop(syscall.SIGQUIT, 5*time.Second)
	}
	for _, n := range d.nodes {
		n.Stop(syscall.SIGTERM, 3*time.Second)
	}
	if d.redis != nil {
		d.redis.Stop(syscall.SIGTERM, 5*time.Second)
	}
	killLeftovers(d.dir)
	os.RemoveAll(d.dir)
}

// killLeftovers kills every process still working in dir: each program
// of a deployment starts there, and nginx's workers outlive a master that
// was killed (they are then nobody's children but init's).
func killLeftovers(dir string) {
	for _, pid := range processesIn(dir) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// processesIn lists the processes whose working directory is dir.
func processesIn(dir string) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err == nil && cwd == dir {
			out = append(out, pid)
		}
	}
	return out
}

// nginxConnections is nginx's worker_connections: the seed's 9000, or
// enough for one worker to hold every device's connection and one to a
// node each, as the seed meant it ("to avoid a bottleneck on the load
// balancer"); nginx does not spread connections evenly over its workers.
func nginxConnections(devices int) int { return max(9000, 2*devices+1024) }

// nginxFiles is the open files nginx needs (worker_rlimit_nofile, and the
// container's nofile limit).
func nginxFiles(devices int) int { return nginxConnections(devices) + 1024 }
