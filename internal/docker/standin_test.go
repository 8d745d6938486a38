package docker_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/docker/enginetest"
)

// nowhere is an upstream that is never dialled: the handshake and refusals
// are the stand-in's own answers.
var nowhere, _ = docker.ResolveEndpoint(func(k string) string {
	if k == "DOCKER_HOST" {
		return "unix:///nonexistent/docker.sock"
	}
	return ""
})

// rawGet sends GET path to the stand-in as an old client pinned to a
// version would, and returns the status and body.
func rawGet(t *testing.T, host, path string) (int, string) {
	t.Helper()
	sock := strings.TrimPrefix(host, "unix://")
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", sock)
	}}}
	resp, err := hc.Get("http://docker" + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

// The stand-in refuses what Engine 29 refuses, with its words, and boxtax
// negotiates past it.
func TestEngine29StandinHandshake(t *testing.T) {
	s := enginetest.Start(t, enginetest.Docker29, nowhere, "1.41")
	code, body := rawGet(t, s.Host, "/v1.41/info")
	want := `{"message":"client version 1.41 is too old. Minimum supported API version is 1.44, please upgrade your client to a newer version"}`
	if code != http.StatusBadRequest || body != want {
		t.Errorf("pinned 1.41: HTTP %d %s\nwant HTTP 400 %s", code, body, want)
	}
	if code, body := rawGet(t, s.Host, "/v1.53/info"); code != http.StatusBadRequest || !strings.Contains(body, "client version 1.53 is too new. Maximum supported API version is 1.52") {
		t.Errorf("1.53: HTTP %d %s, want too new", code, body)
	}
	c, err := docker.NewClient(s.Host)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	e, err := c.Engine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if e.APIVersion != "1.52" || e.String() != "Docker Engine 29.0.0" || e.MinAPIVersion != "1.44" || e.Platform != "Docker Engine - Community" {
		t.Errorf("negotiated %+v, want API 1.52 with Docker Engine 29.0.0 (1.44 to 1.52)", e)
	}
}

// An engine with no version in common is named with both ranges and what to do.
func TestNoCommonAPIVersion(t *testing.T) {
	tests := []struct {
		name   string
		engine enginetest.Engine
		want   []string
	}{
		{"too old", enginetest.Docker19, []string{"Docker Engine 19.03.15 at unix://", "serves Engine API 1.12 to 1.40",
			"boxtax speaks 1.41 to 1.52", "too old; upgrade it", "--envs native"}},
		{"too new", enginetest.DockerFuture, []string{"Docker Engine 99.0.0", "serves Engine API 1.60 to 1.70",
			"boxtax speaks 1.41 to 1.52", "newer than this boxtax; use a newer boxtax", "DOCKER_MIN_API_VERSION=1.52", "--envs native"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := enginetest.Start(t, tt.engine, nowhere, "1.41")
			c, err := docker.NewClient(s.Host)
			if err != nil {
				t.Fatal(err)
			}
			err = c.Ping(context.Background())
			var verr *docker.VersionError
			if !errors.As(err, &verr) {
				t.Fatalf("Ping = %v (%T), want a *VersionError", err, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nlacks %q", err, w)
				}
			}
			if _, err := c.Info(context.Background()); !errors.As(err, &verr) {
				t.Errorf("Info = %v, want the same *VersionError before any request is sent", err)
			}
		})
	}
}

// Behind the stand-in the real daemon answers: boxtax speaks 1.52 to
// "Engine 29", which passes the requests on to the engine here.
func TestRealDaemonBehindEngine29(t *testing.T) {
	up, upAPI := enginetest.RealDaemon(t)
	s := enginetest.Start(t, enginetest.Docker29, up, upAPI)
	c, err := docker.NewClient(s.Host)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	info, err := c.Info(ctx)
	if err != nil || info.Driver == "" {
		t.Fatalf("Info through the stand-in = %+v, %v; want the real daemon's facts", info, err)
	}
	if _, err := c.ContainerList(ctx, map[string]string{"io.boxtax.test": "none"}); err != nil {
		t.Fatal(err)
	}
	if e, _ := c.Negotiate(ctx); e.APIVersion != "1.52" {
		t.Errorf("negotiated %s, want 1.52", e.APIVersion)
	}
}
