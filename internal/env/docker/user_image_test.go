package docker

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/boxtax/boxtax/internal/docker"
)

// fakeEngine answers the Docker API calls of a move: it holds images by id
// (with their names), saves one as its id's bytes, and loads an archive
// as the image whose id loadAs gives it.
type fakeEngine struct {
	mu     sync.Mutex
	names  map[string]string // name or id -> id
	loadAs func(archive string) (id string, names []string)
}

func (f *fakeEngine) serve(t *testing.T) *docker.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		path := r.URL.Path[strings.Index(r.URL.Path[1:], "/")+1:] // without /v1.41
		switch {
		case r.URL.Path == "/_ping":
			w.Header().Set("Api-Version", "1.41")
			io.WriteString(w, "OK")
		case r.URL.Path == "/version":
			io.WriteString(w, `{"ApiVersion":"1.41","MinAPIVersion":"1.12"}`)
		case r.Method == http.MethodGet && strings.HasSuffix(path, "/json"):
			if id, ok := f.names[strings.TrimSuffix(strings.TrimPrefix(path, "/images/"), "/json")]; ok {
				io.WriteString(w, `{"Id":"`+id+`"}`)
				return
			}
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"message":"no such image"}`)
		case r.Method == http.MethodGet && strings.HasSuffix(path, "/get"):
			io.WriteString(w, "archive of "+f.names[strings.TrimSuffix(strings.TrimPrefix(path, "/images/"), "/get")])
		case r.Method == http.MethodPost && path == "/images/load":
			b, _ := io.ReadAll(r.Body)
			id, names := f.loadAs(string(b))
			f.names[id] = id
			for _, n := range names {
				f.names[n] = id
			}
			io.WriteString(w, `{"stream":"Loaded image ID: `+id+`\n"}`)
		case r.Method == http.MethodPost && strings.HasSuffix(path, "/tag"):
			ref := strings.TrimSuffix(strings.TrimPrefix(path, "/images/"), "/tag")
			f.names[r.URL.Query().Get("repo")+":"+r.URL.Query().Get("tag")] = f.names[ref]
		default:
			t.Errorf("unexpected call %s %s", r.Method, r.URL.Path)
			w.WriteHeader(http.StatusNotImplemented)
		}
	}))
	t.Cleanup(srv.Close)
	c, err := docker.NewClient("tcp://" + strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestMoveImageKeepsTheIDOrRefuses: an image moved from one engine to the
// other arrives with its id and under the name the study gives (Podman's
// archive names it localhost/NAME); an engine that loads it as another id
// is refused with both names and the id, not run.
func TestMoveImageKeepsTheIDOrRefuses(t *testing.T) {
	const id = "sha256:1111111111111111111111111111111111111111111111111111111111111111"
	ctx := context.Background()
	from := (&fakeEngine{names: map[string]string{"my-app:1": id, "localhost/my-app:1": id}}).serve(t)

	same := &fakeEngine{names: map[string]string{}, loadAs: func(archive string) (string, []string) {
		return strings.TrimPrefix(archive, "archive of "), []string{"localhost/my-app:1"}
	}}
	if err := MoveImage(ctx, "my-app:1", from, same.serve(t), "Podman", "Docker"); err != nil {
		t.Fatalf("MoveImage with the same id: %v", err)
	}
	if same.names["my-app:1"] != id {
		t.Errorf("after the move the study's name my-app:1 is %q in Docker, want %s: %v", same.names["my-app:1"], id, same.names)
	}

	other := &fakeEngine{names: map[string]string{}, loadAs: func(string) (string, []string) {
		return "sha256:2222222222222222222222222222222222222222222222222222222222222222", []string{"localhost/my-app:1"}
	}}
	err := MoveImage(ctx, "my-app:1", from, other.serve(t), "Podman", "Docker")
	if err == nil || !strings.Contains(err.Error(), "another image id") || !strings.Contains(err.Error(), "111111111111 in Podman") {
		t.Errorf("MoveImage to an engine that loads another id: %v, want a refusal naming the id and the engines", err)
	}

	if err := MoveImage(ctx, "not-there:1", from, same.serve(t), "Podman", "Docker"); !docker.IsNotFound(err) {
		t.Errorf("MoveImage of an image the source lacks: %v, want not found", err)
	}
}
