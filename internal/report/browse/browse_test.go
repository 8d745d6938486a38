package browse

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/testenv"
)

// fakeSource holds two small studies, one of them with a hostile name.
type fakeSource struct{}

var studies = []store.Study{
	{ID: 1, Name: "quick", Status: store.StudyFinished, CreatedAt: time.Date(2026, 11, 21, 4, 0, 0, 0, time.UTC), HostJSON: `{"hostname":"vm","cpus":2,"cpu_model":"AMD EPYC"}`, SpecYAML: "name: quick\n"},
	{ID: 2, Name: "<script>alert(1)</script>", Status: store.StudyFinished, CreatedAt: time.Date(2026, 11, 21, 5, 0, 0, 0, time.UTC), HostJSON: `{"hostname":"pi","cpus":4,"cpu_model":"Cortex-A72"}`, SpecYAML: "name: x\n"},
}

func (fakeSource) Studies(context.Context) ([]store.Study, error) { return studies, nil }

func (fakeSource) Open(_ context.Context, id int64) (*study.Stored, error) {
	if id < 1 || id > int64(len(studies)) {
		return nil, fmt.Errorf("study %d: %w", id, store.ErrNotFound)
	}
	var values []float64
	for _, v := range []float64{100, 101, 99, 90, 91, 89} {
		values = append(values, v*float64(id))
	}
	runs, samples := testenv.NativeAndBridgeRuns("w.x", "ops_per_s", "ops/s", values...)
	spec := &study.Spec{Baseline: "native", Envs: []study.Named{{Name: "native"}, {Name: "docker-bridge"}}}
	return &study.Stored{Study: studies[id-1], Spec: spec, Runs: runs, Samples: samples}, nil
}

func get(t *testing.T, h http.Handler, method, target, host string) (int, string, http.Header) {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	if host != "" {
		req.Host = host
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(body), rec.Result().Header
}

func TestBrowsePages(t *testing.T) {
	h := Handler(fakeSource{}, "boxtax.db", true)
	tests := []struct {
		method, target, host string
		code                 int
		want                 []string
	}{
		{"GET", "/", "127.0.0.1:8080", 200, []string{"2 stored studies", `<a href="/study/1">quick</a>`, "&lt;script&gt;alert(1)&lt;/script&gt;", "pi: Cortex-A72 x4"}},
		{"GET", "/study/1", "localhost:8080", 200, []string{"<!DOCTYPE html>", `data-kind="bars"`, "Study 1: quick"}},
		{"GET", "/study/2", "[::1]:8080", 200, []string{"Study 2: &lt;script&gt;alert(1)&lt;/script&gt;"}},
		{"GET", "/study/1?format=json", "127.0.0.1", 200, []string{`"schema": "boxtax.report/v1"`}},
		{"GET", "/study/1?format=pdf", "127.0.0.1", 400, []string{"valid formats"}},
		{"GET", "/study/1/paper/krylovskiy2015", "127.0.0.1", 200, []string{"Table III. Memory I/O benchmarking: STREAM"}},
		{"GET", "/study/1/paper/nope", "127.0.0.1", 404, []string{"krylovskiy2015"}},
		{"GET", "/study/9", "127.0.0.1", 404, []string{"not found"}},
		// issue 42, 15: an id too large is said so, not "a positive number"
		{"GET", "/study/99999999999999999999", "127.0.0.1", 404, []string{"a study id is at most 9223372036854775807, and this one is larger"}},
		{"GET", "/study/x", "127.0.0.1", 404, []string{"a study id is a positive number"}},
		{"GET", "/compare?s=1&s=2", "127.0.0.1", 200, []string{"B vs A", "&#43;100.0%*"}},
		{"GET", "/compare?s=1", "127.0.0.1", 400, []string{"at least two"}},
		{"POST", "/", "127.0.0.1", 405, []string{"only reads"}},
		{"GET", "/", "evil.example:8080", 403, []string{"only requests for localhost"}},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.target+" "+tt.host, func(t *testing.T) {
			code, body, hdr := get(t, h, tt.method, tt.target, tt.host)
			if code != tt.code {
				t.Fatalf("status %d, want %d: %s", code, tt.code, body)
			}
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("body lacks %q:\n%s", w, body)
				}
			}
			if strings.Contains(body, "<script>") {
				t.Errorf("unescaped script in the page")
			}
			if !strings.Contains(hdr.Get("Content-Security-Policy"), "default-src 'none'") {
				t.Errorf("no CSP header")
			}
		})
	}
}

func TestAnyHostWhenNotLoopbackOnly(t *testing.T) {
	if code, _, _ := get(t, Handler(fakeSource{}, "x.db", false), "GET", "/", "box.lan:8080"); code != 200 {
		t.Errorf("status %d", code)
	}
}
