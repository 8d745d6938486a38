package docker

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

func TestChooseAPIVersion(t *testing.T) {
	tests := []struct {
		name                 string
		daemonMin, daemonMax string
		want                 string
		wantErr              bool
	}{
		{name: "Docker 20.10", daemonMin: "1.12", daemonMax: "1.41", want: "1.41"},
		{name: "Docker 24", daemonMin: "1.12", daemonMax: "1.43", want: "1.43"},
		{name: "Docker 29", daemonMin: "1.44", daemonMax: "1.52", want: "1.52"},
		{name: "newer than we know", daemonMin: "1.44", daemonMax: "1.55", want: "1.52"},
		{name: "Podman 4 (no minimum given)", daemonMin: "", daemonMax: "1.41", want: "1.41"},
		{name: "two-digit minor compares as a number", daemonMin: "1.9", daemonMax: "1.100", want: "1.52"},
		{name: "too old", daemonMin: "1.12", daemonMax: "1.40", wantErr: true},
		{name: "too new", daemonMin: "1.53", daemonMax: "1.60", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := chooseAPIVersion(tt.daemonMin, tt.daemonMax)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("chooseAPIVersion(%q, %q) = %q, %v; want %q (error %v)", tt.daemonMin, tt.daemonMax, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestEngineOf(t *testing.T) {
	for _, tt := range []struct {
		name     string
		answer   string // /version's answer
		wantName string
		wantVer  string
	}{
		{"Docker 20.10 of Debian", `{"Platform":{"Name":""},"Components":[{"Name":"Engine","Version":"20.10.24+dfsg1"},` +
			`{"Name":"containerd","Version":"1.6.20~ds1"}],"Version":"20.10.24+dfsg1","ApiVersion":"1.41","MinAPIVersion":"1.12"}`,
			"Docker Engine", "20.10.24+dfsg1"},
		{"Podman 4.3", `{"Platform":{"Name":"linux/amd64/debian-12"},"Components":[{"Name":"Podman Engine","Version":"4.3.1"},` +
			`{"Name":"Conmon","Version":"conmon version 2.1.6"}],"Version":"4.3.1","ApiVersion":"1.41","MinAPIVersion":"1.24"}`,
			"Podman Engine", "4.3.1"},
		{"Docker 29", `{"Platform":{"Name":"Docker Engine - Community"},"Components":[{"Name":"Engine","Version":"29.0.0"}],` +
			`"Version":"29.0.0","ApiVersion":"1.52","MinAPIVersion":"1.44"}`, "Docker Engine", "29.0.0"},
		{"no components", `{"Version":"1.2.3","ApiVersion":"1.41"}`, "Docker Engine", "1.2.3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var v versionAnswer
			if err := json.Unmarshal([]byte(tt.answer), &v); err != nil {
				t.Fatal(err)
			}
			e := engineOf(v)
			if e.Name != tt.wantName || e.Version != tt.wantVer {
				t.Errorf("engine = %q %q, want %q %q", e.Name, e.Version, tt.wantName, tt.wantVer)
			}
		})
	}
}

// versionDaemon answers /_ping and /version with the API range in *rng
// (min, max), refuses versions outside it as Docker does, and answers 200
// {} to anything else. It counts the /_ping requests.
func versionDaemon(t *testing.T, rng *atomic.Value, versionCalls *atomic.Int32) *Client {
	return rawDaemon(t, func(w http.ResponseWriter, r *http.Request) {
		r2 := rng.Load().([2]string)
		w.Header().Set("Api-Version", r2[1])
		switch r.URL.Path {
		case "/_ping":
			versionCalls.Add(1)
			io.WriteString(w, "OK")
			return
		case "/version":
			fmt.Fprintf(w, `{"Components":[{"Name":"Engine","Version":"x"}],"Version":"x","ApiVersion":%q,"MinAPIVersion":%q}`, r2[1], r2[0])
			return
		}
		v := strings.TrimPrefix(strings.SplitN(r.URL.Path, "/", 3)[1], "v")
		if apiLess(v, r2[0]) {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"message":"client version %s is too old. Minimum supported API version is %s, please upgrade your client to a newer version"}`, v, r2[0])
			return
		}
		io.WriteString(w, "{}")
	})
}

func TestNegotiateOnceForConcurrentCallers(t *testing.T) {
	var rng atomic.Value
	rng.Store([2]string{"1.44", "1.52"})
	var calls atomic.Int32
	c := versionDaemon(t, &rng, &calls)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.Info(context.Background())
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("/_ping asked %d times by 16 concurrent requests, want once", n)
	}
	e, _ := c.Negotiate(context.Background())
	if e.APIVersion != "1.52" {
		t.Errorf("negotiated %s, want 1.52", e.APIVersion)
	}
}

// An engine upgraded under a running client refuses the old version; the
// client asks again and sends the request once more at the new one.
func TestRenegotiateAfterRefusal(t *testing.T) {
	var rng atomic.Value
	rng.Store([2]string{"1.12", "1.41"})
	var calls atomic.Int32
	c := versionDaemon(t, &rng, &calls)
	ctx := context.Background()
	if _, err := c.Info(ctx); err != nil {
		t.Fatal(err)
	}
	rng.Store([2]string{"1.44", "1.52"}) // the upgrade
	if _, err := c.Info(ctx); err != nil {
		t.Fatalf("after the upgrade: %v, want the request renegotiated and sent again", err)
	}
	if e, _ := c.Negotiate(ctx); e.APIVersion != "1.52" || calls.Load() != 2 {
		t.Errorf("version %s after %d negotiations, want 1.52 after 2", e.APIVersion, calls.Load())
	}
}

func TestNegotiateNotADaemon(t *testing.T) {
	c := rawDaemon(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Api-Version", "1.41")
		io.WriteString(w, "<html>hello</html>")
	})
	_, err := c.Engine(context.Background())
	if err == nil || !strings.Contains(err.Error(), "not as a Docker daemon does (its /version is not JSON") {
		t.Fatalf("error = %v, want a word about DOCKER_HOST pointing elsewhere", err)
	}
}
