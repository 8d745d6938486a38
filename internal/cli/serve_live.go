package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"syscall"

	"github.com/boxtax/boxtax/internal/store"
)

// servedDBs are the databases serve reads, each reopened when its file is
// replaced while it serves (a new file renamed over the path, a fetched
// copy moved into place), so that a page shows the file at the path now:
// a store left open on the old file would show it for ever, and would
// read the old file with the new file's write-ahead log beside it, which
// SQLite finds by name (issue 42 item 13: "3 stored studies").
type servedDBs struct {
	mu  sync.RWMutex // held to read while a request is served; to reopen, alone
	dbs []*servedDB
}

// servedDB is one database serve reads and the file it has open.
type servedDB struct {
	path string
	db   *store.Store
	file fileID // the file db was opened on
}

// fileID tells one file at a path from another put there since, and a
// file changed in place from what it was (its ctime).
type fileID struct {
	dev, ino uint64
	ctimeNs  int64
}

// fileIDOf is the identity of the file at path now.
func fileIDOf(path string) (fileID, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileID{}, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, fmt.Errorf("%s: no file identity on this system", path)
	}
	return fileID{uint64(st.Dev), uint64(st.Ino), st.Ctim.Nano()}, nil
}

// openServed opens the databases at paths for serve, each file once: a
// path naming a file already named (the same path twice, ./a.db beside
// a.db, a link) is left out and said on note.
func openServed(ctx context.Context, paths []string, note io.Writer) (*servedDBs, error) {
	s := &servedDBs{}
	for _, p := range paths {
		if dup := s.sameFile(p); dup != "" {
			fmt.Fprintf(note, "%s is the database %s, served once\n", p, dup)
			continue
		}
		d := &servedDB{path: p}
		if err := d.open(ctx); err != nil {
			s.Close()
			return nil, err
		}
		s.dbs = append(s.dbs, d)
	}
	return s, nil
}

// sameFile is the path of an opened database that is the file at p, or "".
func (s *servedDBs) sameFile(p string) string {
	fi, err := os.Stat(p)
	if err != nil {
		return ""
	}
	for _, d := range s.dbs {
		if di, err := os.Stat(d.path); err == nil && os.SameFile(fi, di) {
			return d.path
		}
	}
	return ""
}

// open (re)opens the database at d's path, closing the one open before.
func (d *servedDB) open(ctx context.Context) error {
	id, err := fileIDOf(d.path)
	if err != nil {
		id = fileID{} // openExisting says what is wrong
	}
	db, err := openExisting(ctx, d.path)
	if err != nil {
		return err
	}
	if d.db != nil {
		d.db.Close()
	}
	d.db, d.file = db, id
	return nil
}

// replaced tells whether the file at d's path is no longer the one d has
// open. A path with no file now (removed, or between an unlink and a
// rename) is not replaced yet: the file open is all there is.
func (d *servedDB) replaced() bool {
	id, err := fileIDOf(d.path)
	return err == nil && id != d.file
}

// anyReplaced tells whether one of the databases was replaced.
func (s *servedDBs) anyReplaced() bool {
	for _, d := range s.dbs {
		if d.replaced() {
			return true
		}
	}
	return false
}

// refresh reopens every database whose file was replaced.
func (s *servedDBs) refresh(ctx context.Context) error {
	if !s.anyReplaced() {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.dbs {
		if d.replaced() {
			if err := d.open(ctx); err != nil {
				return fmt.Errorf("%s was replaced by a file boxtax cannot read: %w", d.path, err)
			}
		}
	}
	return nil
}

// Close closes every database.
func (s *servedDBs) Close() {
	for _, d := range s.dbs {
		if d.db != nil {
			d.db.Close()
		}
	}
}

// servedRetries is how often a page is made again when a database was
// replaced while it was being made.
const servedRetries = 3

// Handler serves next's pages from the databases as their files are now:
// the ones replaced since the last page are reopened first, and a page
// made while one was replaced is made again, since it may have read the
// old file with the new one's log, so that such a page is never sent.
func (s *servedDBs) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for range servedRetries {
			if err := s.refresh(r.Context()); err != nil {
				http.Error(w, err.Error(), http.StatusServiceUnavailable)
				return
			}
			page := newBufferedResponse()
			s.mu.RLock()
			next.ServeHTTP(page, r)
			replaced := s.anyReplaced()
			s.mu.RUnlock()
			if !replaced {
				page.sendTo(w)
				return
			}
		}
		http.Error(w, "the database was replaced again and again while this page was made: reload it", http.StatusServiceUnavailable)
	})
}

// bufferedResponse holds a page until it is known to be sent.
type bufferedResponse struct {
	header http.Header
	status int
	wrote  bool // WriteHeader was called: later calls are ignored, as net/http does
	body   bytes.Buffer
}

func newBufferedResponse() *bufferedResponse {
	return &bufferedResponse{header: http.Header{}, status: http.StatusOK}
}

func (b *bufferedResponse) Header() http.Header { return b.header }
func (b *bufferedResponse) Write(p []byte) (int, error) {
	b.WriteHeader(http.StatusOK)
	return b.body.Write(p)
}
func (b *bufferedResponse) WriteHeader(status int) {
	if !b.wrote {
		b.status, b.wrote = status, true
	}
}

// sendTo sends the held page to w.
func (b *bufferedResponse) sendTo(w http.ResponseWriter) {
	for k, v := range b.header {
		w.Header()[k] = v
	}
	w.WriteHeader(b.status)
	w.Write(b.body.Bytes())
}
