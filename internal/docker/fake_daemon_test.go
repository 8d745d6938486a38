package docker

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/errtest"
)

// fakeDaemon serves handler on a unix socket and returns a client for it.
// The unversioned /_ping and /version answer as Docker 20.10 does (API 1.12
// to 1.41) unless handler is given them first via rawDaemon.
func fakeDaemon(t *testing.T, handler http.HandlerFunc) *Client {
	t.Helper()
	return rawDaemon(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/_ping":
			w.Header().Set("Api-Version", "1.41")
			io.WriteString(w, "OK")
		case "/version":
			w.Header().Set("Api-Version", "1.41")
			io.WriteString(w, `{"Components":[{"Name":"Engine","Version":"20.10.24"}],"Version":"20.10.24","ApiVersion":"1.41","MinAPIVersion":"1.12"}`)
		default:
			handler(w, r)
		}
	})
}

// rawDaemon serves handler, and nothing else, on a unix socket and returns
// a client for it.
func rawDaemon(t *testing.T, handler http.HandlerFunc) *Client {
	t.Helper()
	sock := filepath.Join(shortTempDir(t), "fake.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(handler)
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	c, err := NewClient("unix://" + sock)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestDaemonErrorsCarryItsMessage(t *testing.T) {
	c := fakeDaemon(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1.41/images/boxtax-worker:abc/json" {
			t.Errorf("path = %s, want the negotiated API version 1.41", r.URL.Path)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"message":"No such image: boxtax-worker:abc"}`)
	})
	_, err := c.ImageInspect(context.Background(), "boxtax-worker:abc")
	if !IsNotFound(err) {
		t.Fatalf("IsNotFound(%v) = false", err)
	}
	if !strings.Contains(err.Error(), "No such image: boxtax-worker:abc") {
		t.Errorf("error %q lacks the daemon's message", err)
	}
}

func TestPingNotADaemon(t *testing.T) {
	c := rawDaemon(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "OK") })
	err := c.Ping(context.Background())
	if err == nil || !strings.Contains(err.Error(), "not as a Docker daemon does") {
		t.Fatalf("error = %v, want a word about DOCKER_HOST pointing elsewhere", err)
	}
}

func TestImageImport(t *testing.T) {
	tests := []struct {
		name    string
		stream  string
		wantErr string
	}{
		{name: "success", stream: `{"status":"sha256:0123"}` + "\r\n"},
		{name: "error line", stream: `{"errorDetail":{"message":"archive/tar: invalid tar header"},"error":"archive/tar: invalid tar header"}`,
			wantErr: "docker daemon: archive/tar: invalid tar header"},
		{name: "error without detail", stream: `{"error":"no space left on device"}`, wantErr: "docker daemon: no space left on device"},
		{name: "cut off", stream: `{"status":"sha`, wantErr: "reading the daemon's progress"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fakeDaemon(t, func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/v1.41/images/create":
					q := r.URL.Query()
					wantChanges := []string{`ENTRYPOINT ["/boxtax"]`, `LABEL "io.boxtax.managed"="true"`, `LABEL "io.boxtax.note"="a b, /c=d 'e'"`}
					if q.Get("fromSrc") != "-" || q.Get("repo") != "boxtax-worker-test:1" ||
						strings.Join(q["changes"], "|") != strings.Join(wantChanges, "|") {
						t.Errorf("query = %v, want an import from the body with tag and changes %q", q, wantChanges)
					}
					if ct := r.Header.Get("Content-Type"); ct != "application/x-tar" {
						t.Errorf("Content-Type = %s", ct)
					}
					if body, _ := io.ReadAll(r.Body); string(body) != "tar bytes" {
						t.Errorf("body = %q, want the root filesystem", body)
					}
					io.WriteString(w, tt.stream)
				case "/v1.41/images/boxtax-worker-test:1/json":
					io.WriteString(w, `{"Id":"sha256:0123"}`)
				default:
					t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
					w.WriteHeader(http.StatusNotFound)
				}
			})
			id, err := c.ImageImport(context.Background(), strings.NewReader("tar bytes"), ImportOptions{
				Tag: "boxtax-worker-test:1", Entrypoint: []string{"/boxtax"},
				Labels: map[string]string{"io.boxtax.managed": "true", "io.boxtax.note": `a b, /c=d 'e'`},
			})
			if errtest.Want(t, err, tt.wantErr) {
				return
			}
			if id != "sha256:0123" {
				t.Fatalf("ImageImport = %q; want sha256:0123", id)
			}
		})
	}
}

// A label value an engine would read differently is refused before anything is sent.
func TestImageImportRefusesEscapes(t *testing.T) {
	c := fakeDaemon(t, func(w http.ResponseWriter, r *http.Request) { t.Errorf("sent %s %s", r.Method, r.URL) })
	for _, v := range []string{`a "b"`, `a\b`, `$HOME`, "a\nb"} {
		_, err := c.ImageImport(context.Background(), strings.NewReader(""), ImportOptions{Tag: "x:1", Labels: map[string]string{"k": v}})
		if err == nil || !strings.Contains(err.Error(), "may not hold a double quote, backslash, dollar sign or line break") {
			t.Errorf("label %q: error %v", v, err)
		}
	}
}

func TestContainerListFiltersByLabel(t *testing.T) {
	c := fakeDaemon(t, func(w http.ResponseWriter, r *http.Request) {
		if got, want := r.URL.Query().Get("filters"), `{"label":["io.boxtax.managed=true"]}`; got != want {
			t.Errorf("filters = %s, want %s (one label: Podman 4 answers nothing to several)", got, want)
		}
		if r.URL.Query().Get("all") != "1" {
			t.Error("stopped containers are not listed")
		}
		io.WriteString(w, `[{"Id":"abc","Labels":{"io.boxtax.managed":"true","io.boxtax.run":"7"}},`+
			`{"Id":"def","Labels":{"io.boxtax.managed":"true"}}]`)
	})
	list, err := c.ContainerList(context.Background(), map[string]string{"io.boxtax.managed": "true", "io.boxtax.run": ""})
	if err != nil || len(list) != 1 || list[0].ID != "abc" {
		t.Fatalf("ContainerList = %+v, %v", list, err)
	}
}

// TestInspectAsksAgainWhenTheProcessExitedMeanwhile: Podman 4.3's
// compatible API answers an inspect of a container whose process is
// exiting with HTTP 500 "read /proc/PID/cgroup: no such process"; asked
// again it gives the exited state. Other 500s are not asked again, and a
// container that keeps answering so is an error after inspectTries.
func TestInspectAsksAgainWhenTheProcessExitedMeanwhile(t *testing.T) {
	const vanished = `{"cause":"no such process","message":"read /proc/26503/cgroup: no such process","response":500}`
	for _, tc := range []struct {
		name      string
		failures  int    // answers of 500 before the state
		message   string // their body
		wantTries int
		wantErr   bool
	}{
		{"once", 1, vanished, 2, false},
		{"always", 100, vanished, inspectTries, true},
		{"another 500", 1, `{"message":"something else broke"}`, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tries := 0
			c := fakeDaemon(t, func(w http.ResponseWriter, r *http.Request) {
				tries++
				w.Header().Set("Content-Type", "application/json")
				if tries <= tc.failures {
					w.WriteHeader(http.StatusInternalServerError)
					io.WriteString(w, tc.message)
					return
				}
				io.WriteString(w, `{"Id":"1a05f2fc89eb","State":{"Status":"exited","ExitCode":3}}`)
			})
			ct, err := c.ContainerInspect(context.Background(), "1a05f2fc89eb")
			if tries != tc.wantTries || (err != nil) != tc.wantErr {
				t.Fatalf("%d tries, error %v; want %d tries, an error: %v", tries, err, tc.wantTries, tc.wantErr)
			}
			if err == nil && ct.State.ExitCode != 3 {
				t.Errorf("state %+v, want exit code 3", ct.State)
			}
		})
	}
}
