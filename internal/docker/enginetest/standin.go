// Package enginetest imitates Docker engines that are not installed here,
// for tests: a stand-in answers the version handshake as the imitated
// engine does, refuses API versions outside its range with the engine's own
// message, and forwards every request it accepts to the real daemon of this
// machine (rewriting the version in the path to one that daemon serves), so
// that real containers run behind it.
//
// It imitates the engine's API version rules, not its behaviour otherwise:
// what the real daemon answers is what the client sees.
package enginetest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/docker"
)

// Engine is the imitated engine: its name, version and API range.
type Engine struct {
	Platform      string // /version's Platform.Name
	Component     string // /version's Components[0].Name: "Engine" for Docker
	Version       string // e.g. 29.0.0
	MinAPIVersion string
	MaxAPIVersion string
}

// Docker29 is Docker Engine 29.0, the current release since November 2025:
// it serves Engine API 1.44 to 1.52 only.
var Docker29 = Engine{Platform: "Docker Engine - Community", Component: "Engine", Version: "29.0.0",
	MinAPIVersion: "1.44", MaxAPIVersion: "1.52"}

// Docker19 is Docker Engine 19.03 (API 1.12 to 1.40), older than boxtax speaks.
var Docker19 = Engine{Platform: "Docker Engine - Community", Component: "Engine", Version: "19.03.15",
	MinAPIVersion: "1.12", MaxAPIVersion: "1.40"}

// DockerFuture is an engine whose oldest API is newer than boxtax speaks.
var DockerFuture = Engine{Platform: "Docker Engine - Community", Component: "Engine", Version: "99.0.0",
	MinAPIVersion: "1.60", MaxAPIVersion: "1.70"}

// versionedPath is /v1.44/rest.
var versionedPath = regexp.MustCompile(`^/v(\d+)\.(\d+)(/.*)$`)

// Standin is a running stand-in daemon.
type Standin struct {
	Host   string // unix:///.../docker.sock, for DOCKER_HOST
	Engine Engine

	upstreamAPI string // the version requests are forwarded at
	upstreamArc string
	proxy       *httputil.ReverseProxy
	srv         *http.Server
}

// Start serves a stand-in for engine on a new unix socket, forwarding to the
// daemon that DOCKER_HOST (or the docker context) names; it stops when the
// test ends. upstreamAPI is the version the real daemon serves (its
// /version ApiVersion).
func Start(t testing.TB, engine Engine, upstream docker.Endpoint, upstreamAPI string) *Standin {
	t.Helper()
	dir, err := os.MkdirTemp("", "standin")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "docker.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	network, address := upstream.Address()
	transport := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, address)
		},
		TLSClientConfig: upstream.TLS,
	}
	scheme := "http"
	if upstream.TLS != nil {
		scheme = "https"
	}
	s := &Standin{Host: "unix://" + sock, Engine: engine, upstreamAPI: upstreamAPI, upstreamArc: runtime.GOARCH}
	s.proxy = &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.Out.URL.Scheme, r.Out.URL.Host = scheme, "docker"
			r.Out.Host = "docker"
		},
		Transport:     transport,
		FlushInterval: -1, // attach and wait stream: pass every byte on at once
	}
	s.srv = &http.Server{Handler: s}
	go s.srv.Serve(l)
	t.Cleanup(func() { s.srv.Close() })
	return s
}

// ServeHTTP answers as the imitated engine: the handshake itself, a refusal
// for a version outside its range, else the real daemon's answer.
func (s *Standin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if m := versionedPath.FindStringSubmatch(path); m != nil {
		v := m[1] + "." + m[2]
		if less(v, s.Engine.MinAPIVersion) {
			refuse(w, fmt.Sprintf("client version %s is too old. Minimum supported API version is %s, "+
				"please upgrade your client to a newer version", v, s.Engine.MinAPIVersion))
			return
		}
		if less(s.Engine.MaxAPIVersion, v) {
			refuse(w, fmt.Sprintf("client version %s is too new. Maximum supported API version is %s", v, s.Engine.MaxAPIVersion))
			return
		}
		path = m[3]
	}
	switch path {
	case "/_ping":
		s.ping(w, r)
		return
	case "/version":
		s.version(w)
		return
	}
	// Forward at the real daemon's version: what it answers is the answer.
	r.URL.Path = "/v" + s.upstreamAPI + path
	r.URL.RawPath = ""
	s.proxy.ServeHTTP(w, r)
}

func (s *Standin) headers(w http.ResponseWriter) {
	w.Header().Set("Api-Version", s.Engine.MaxAPIVersion)
	w.Header().Set("Server", "Docker/"+s.Engine.Version+" (linux)")
	w.Header().Set("Ostype", "linux")
	w.Header().Set("Docker-Experimental", "false")
}

func (s *Standin) ping(w http.ResponseWriter, r *http.Request) {
	s.headers(w)
	w.Header().Set("Builder-Version", "2")
	w.Header().Set("Cache-Control", "no-cache, no-store, must-revalidate")
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if r.Method == http.MethodHead {
		w.Header().Set("Content-Length", "0")
		return
	}
	io.WriteString(w, "OK")
}

func (s *Standin) version(w http.ResponseWriter) {
	s.headers(w)
	w.Header().Set("Content-Type", "application/json")
	details := map[string]string{"ApiVersion": s.Engine.MaxAPIVersion, "MinAPIVersion": s.Engine.MinAPIVersion,
		"Arch": s.upstreamArc, "Os": "linux", "Experimental": "false"}
	_ = json.NewEncoder(w).Encode(map[string]any{
		"Platform":      map[string]string{"Name": s.Engine.Platform},
		"Components":    []map[string]any{{"Name": s.Engine.Component, "Version": s.Engine.Version, "Details": details}},
		"Version":       s.Engine.Version,
		"ApiVersion":    s.Engine.MaxAPIVersion,
		"MinAPIVersion": s.Engine.MinAPIVersion,
		"Os":            "linux",
		"Arch":          s.upstreamArc,
	})
}

// refuse answers as the engine's version middleware does: HTTP 400 with
// the message as JSON.
func refuse(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(map[string]string{"message": msg})
}

// less reports whether API version a is older than b.
func less(a, b string) bool {
	pa, pb := parse(a), parse(b)
	return pa[0] < pb[0] || pa[0] == pb[0] && pa[1] < pb[1]
}

func parse(v string) [2]int {
	maj, min, _ := strings.Cut(v, ".")
	a, _ := strconv.Atoi(maj)
	b, _ := strconv.Atoi(min)
	return [2]int{a, b}
}

// RealDaemon returns the endpoint of this machine's daemon and the API
// version it serves, or skips the test when there is none; in CI
// (CI=true) a missing daemon fails the test.
func RealDaemon(t testing.TB) (docker.Endpoint, string) {
	t.Helper()
	ci := os.Getenv("CI") == "true"
	if testing.Short() && !ci {
		t.Skip("integration test against the Docker engine: skipped in -short mode")
	}
	fail := func(err error) {
		if ci {
			t.Fatalf("the Docker integration tests must run in CI (CI=true): %v", err)
		}
		t.Skipf("skipping the Docker integration test: %v", err)
	}
	ep, err := docker.ResolveEndpoint(os.Getenv)
	if err != nil {
		fail(err)
	}
	c := docker.NewClientFor(ep)
	if err := c.Ping(context.Background()); err != nil {
		fail(err)
	}
	v, err := c.Version(context.Background())
	if err != nil {
		fail(err)
	}
	return ep, v.APIVersion
}
