// Package browse serves the studies of a database to a web browser: an
// index of studies, each study's HTML report (and its other formats), the
// published values beside it, and comparisons of studies. It only reads.
package browse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/boxtax/boxtax/internal/crash"
	"html/template"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boxtax/boxtax/internal/env/docker"
	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/formats"
	"github.com/boxtax/boxtax/internal/report/papers"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
)

// Source is where the studies come from.
type Source interface {
	// Studies lists the stored studies, oldest first.
	Studies(ctx context.Context) ([]store.Study, error)
	// Open reads a stored study (study.Open); an unknown id wraps
	// store.ErrNotFound.
	Open(ctx context.Context, id int64) (*study.Stored, error)
}

// report computes study id's report, with its series.
func (s *server) report(ctx context.Context, id int64) (*report.Report, error) {
	st, err := s.src.Open(ctx, id)
	if err != nil {
		return nil, err
	}
	rep := report.FromStudy(st, false)
	return rep, rep.LoadSeries(ctx, st)
}

// Handler serves src, whose name (the database file) the pages show. With
// loopbackOnly set it answers only requests whose Host names the loopback
// interface, so a web page elsewhere cannot reach it through a DNS name
// rebound to 127.0.0.1.
func Handler(src Source, name string, loopbackOnly bool) http.Handler {
	s := &server{src: src, name: name}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.index)
	mux.HandleFunc("GET /study/{id}", s.study)
	mux.HandleFunc("GET /study/{id}/paper/{paper}", s.paper)
	mux.HandleFunc("GET /compare", s.compare)
	return guard(mux, loopbackOnly)
}

type server struct {
	src  Source
	name string
}

// guard sets the headers every answer carries, refuses anything but GET and
// HEAD, and with loopbackOnly any Host but the loopback interface.
func guard(next http.Handler, loopbackOnly bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "boxtax serve only reads: use GET", http.StatusMethodNotAllowed)
			return
		}
		if loopbackOnly && !loopbackHost(r.Host) {
			http.Error(w, "boxtax serve answers only requests for localhost, 127.0.0.1 or [::1]", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func loopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	host = strings.Trim(host, "[]")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>boxtax · {{.Title}}</title>
<style>
body { margin: 0; color: #1f2328; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", Arial, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 64px; }
h1 { font-size: 26px; margin: 0 0 8px; } a { color: #0072B2; }
table { border-collapse: collapse; font-size: 14px; margin: 12px 0; }
th, td { padding: 5px 10px; text-align: left; border-bottom: 1px solid #d0d7de; }
thead th { border-top: 2px solid #1f2328; border-bottom: 1px solid #1f2328; }
.meta { color: #59636e; } pre { background: #f6f8fa; border: 1px solid #d0d7de; padding: 12px; overflow-x: auto; font-size: 13px; }
button { font: inherit; padding: 4px 12px; }
</style></head><body><main>
<p class="meta"><a href="/">boxtax</a> · studies in {{.DB}}</p>
<h1>{{.Title}}</h1>
{{if .Studies}}<form method="get" action="/compare">
<table><thead><tr><th>compare</th><th>study</th><th>name</th><th>status</th><th>started</th><th>host</th><th>formats</th></tr></thead><tbody>
{{range .Studies}}<tr><td><input type="checkbox" name="s" value="{{.ID}}" aria-label="compare study {{.ID}}"></td><td>{{.ID}}</td><td><a href="/study/{{.ID}}">{{.Name}}</a></td><td>{{.Status}}</td><td>{{.Created}}</td><td>{{.Host}}</td>
<td><a href="/study/{{.ID}}?format=json">json</a> · <a href="/study/{{.ID}}?format=csv">csv</a> · <a href="/study/{{.ID}}?format=markdown">markdown</a> · <a href="/study/{{.ID}}?format=latex">latex</a> · <a href="/study/{{.ID}}/paper/krylovskiy2015">beside Krylovskiy 2015</a></td></tr>
{{end}}</tbody></table>
<p><button type="submit">Compare the checked studies</button> <span class="meta">(the first checked, from the top, is the reference)</span></p></form>
{{else if .Pre}}<pre>{{.Pre}}</pre>{{else}}<p>No study is stored in {{.DB}} yet: run one with <code>boxtax run --db {{.DB}}</code>.</p>{{end}}
</main></body></html>
`))
})

type pageData struct {
	Title, DB, Pre string
	Studies        []studyRow
}

type studyRow struct {
	ID                          int64
	Name, Status, Created, Host string
}

func (s *server) index(w http.ResponseWriter, r *http.Request) {
	studies, err := s.src.Studies(r.Context())
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	title := fmt.Sprintf("%d stored studies", len(studies))
	if len(studies) == 1 {
		title = "1 stored study"
	}
	d := pageData{Title: title, DB: s.name}
	for i := len(studies) - 1; i >= 0; i-- { // newest first
		st := studies[i]
		d.Studies = append(d.Studies, studyRow{ID: st.ID, Name: st.Name, Status: st.Status,
			Created: st.CreatedAt.UTC().Format("2006-01-02 15:04 MST"), Host: hostLine(st.HostJSON)})
	}
	render(w, d)
}

func (s *server) load(w http.ResponseWriter, r *http.Request) (*report.Report, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(r.PathValue("id"), "-") {
		http.Error(w, fmt.Sprintf("study %s not found: a study id is at most %d, and this one is larger; the list at / has the stored ones", r.PathValue("id"), int64(math.MaxInt64)), http.StatusNotFound)
		return nil, false
	}
	if err != nil || id <= 0 {
		http.Error(w, "a study id is a positive number", http.StatusNotFound)
		return nil, false
	}
	rep, err := s.report(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		http.Error(w, err.Error(), http.StatusNotFound)
		return nil, false
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return nil, false
	}
	return rep, true
}

func (s *server) study(w http.ResponseWriter, r *http.Request) {
	format := r.URL.Query().Get("format")
	if format == "" {
		format = "html"
	}
	f, ok := formats.ByName[format]
	if !ok {
		http.Error(w, "unknown format; valid formats: "+strings.Join(formats.Report(), ", "), http.StatusBadRequest)
		return
	}
	rep, ok := s.load(w, r)
	if !ok {
		return
	}
	respond(w, f.ContentType, func(out io.Writer) error { return f.Report(out, rep) })
}

func (s *server) paper(w http.ResponseWriter, r *http.Request) {
	rep, ok := s.load(w, r)
	if !ok {
		return
	}
	cmps, err := papers.Compare(rep, r.PathValue("paper"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	html := formats.ByName["html"]
	respond(w, html.ContentType, func(out io.Writer) error { return html.Paper(out, rep, cmps) })
}

func (s *server) compare(w http.ResponseWriter, r *http.Request) {
	ids := r.URL.Query()["s"]
	if len(ids) < 2 {
		http.Error(w, "check at least two studies to compare", http.StatusBadRequest)
		return
	}
	var labels []string
	var reps []*report.Report
	for _, v := range ids {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			http.Error(w, "a study id is a number", http.StatusBadRequest)
			return
		}
		rep, err := s.report(r.Context(), id)
		if err != nil {
			code := http.StatusInternalServerError
			if errors.Is(err, store.ErrNotFound) {
				code = http.StatusNotFound
			}
			http.Error(w, err.Error(), code)
			return
		}
		labels, reps = append(labels, "study "+v), append(reps, rep)
	}
	cmp := report.Compare(labels, reps)
	format := r.URL.Query().Get("format")
	if format == "json" || format == "markdown" {
		w.Header().Set("Content-Type", formats.ByName[format].ContentType)
		formats.ByName[format].Compare(w, cmp)
		return
	}
	var buf bytes.Buffer
	if err := formats.ByName["table"].Compare(&buf, cmp); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	render(w, pageData{Title: "Comparison of studies " + strings.Join(ids, ", "), DB: s.name, Pre: buf.String()})
}

// hostLine sums up a study's host facts.
func hostLine(hostJSON string) string {
	h := hostinfo.Parse(hostJSON)
	line := h.CPUModel
	if h.CPUs > 0 {
		line = fmt.Sprintf("%s x%d", h.CPUModel, h.CPUs)
	}
	if h.KernelRelease != "" {
		line += ", kernel " + h.KernelRelease
	}
	if d := docker.FactsOf(h); d != nil && d.ServerVersion != "" {
		line += ", Docker " + d.ServerVersion
	}
	if h.Hostname != "" {
		line = h.Hostname + ": " + line
	}
	return line
}

func render(w http.ResponseWriter, d pageData) {
	respond(w, formats.ByName["html"].ContentType, func(out io.Writer) error { return page().Execute(out, d) })
}

// respond answers with what write writes, as contentType, or with a 500
// and write's error: nothing is sent before the whole answer is made.
func respond(w http.ResponseWriter, contentType string, write func(io.Writer) error) {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", contentType)
	w.Write(buf.Bytes())
}

// Serve answers on addr until ctx ends, then shuts down gracefully. ready is
// called with the address actually bound (addr may use port 0).
func Serve(ctx context.Context, addr string, h http.Handler, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	crash.Go(func() { errc <- srv.Serve(ln) })
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(shut)
	}
}
