package cli

import (
	"context"
	"fmt"
	"net"
	"strings"

	"github.com/boxtax/boxtax/internal/report/browse"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
)

// serveOptions are the flags of `boxtax serve`.
type serveOptions struct {
	DB   string
	More []string // further databases (several devices' files): served together with DB
	Addr string   // host:port to listen on; loopback unless asked otherwise
}

func serveCmd(ctx context.Context, g *Globals, args []string) error {
	var o serveOptions
	fs := newFlags(g, "serve", "[flags]")
	var dbs stringList
	fs.Var(&dbs, "db", "SQLite database whose studies to show; repeat (or comma-separate) to show several, e.g. one per device ("+dbDefaultHelp+")")
	fs.StringVar(&o.Addr, "addr", "127.0.0.1:8080", "address to listen on; the default answers this machine only")
	if err := parseNoArgs(fs, args, ""); err != nil {
		return err
	}
	o.DB = defaultDB(g)
	if len(dbs) > 0 {
		o.DB, o.More = dbs[0], dbs[1:]
	}
	return serve(ctx, g, o)
}

// serve shows the studies of o.DB in a browser until ctx ends (Ctrl-C).
func serve(ctx context.Context, g *Globals, o serveOptions) error {
	dbs, err := openServed(ctx, append([]string{o.DB}, o.More...), g.Stderr)
	if err != nil {
		return err
	}
	defer dbs.Close()
	var src browse.Source = dbSource{dbs.dbs[0]}
	name := o.DB
	if len(dbs.dbs) > 1 {
		src = &manySource{dbs: dbs.dbs}
		var names []string
		for _, d := range dbs.dbs {
			names = append(names, d.path)
		}
		name = strings.Join(names, ", ")
	}
	host, _, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return usagef("--addr %q: want host:port, e.g. 127.0.0.1:8080", o.Addr)
	}
	loopback := host == "localhost"
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		loopback = true
	}
	if !loopback {
		fmt.Fprintf(g.Stderr, "warning: listening on %s: anyone who can reach this machine can read the studies in %s\n", o.Addr, o.DB)
	}
	h := dbs.Handler(browse.Handler(src, name, loopback))
	return browse.Serve(ctx, o.Addr, h, func(a net.Addr) {
		fmt.Fprintf(g.Stderr, "serving the studies in %s at http://%s/ (Ctrl-C to stop)\n", name, a)
	})
}

// dbSource gives the browser the studies of one database, as the file at
// its path is now (servedDBs.Handler).
type dbSource struct{ d *servedDB }

func (s dbSource) Studies(ctx context.Context) ([]store.Study, error) { return s.d.db.Studies(ctx) }

func (s dbSource) Open(ctx context.Context, id int64) (*study.Stored, error) {
	return openStudy(ctx, s.d.db, id)
}
