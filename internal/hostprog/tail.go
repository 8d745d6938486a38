package hostprog

import (
	"fmt"
	"sync"
)

// Tail keeps the last Max bytes written to it, so a program's output can
// be quoted when it fails without holding all of it. With Head > 0 it
// keeps the first Head bytes too: a crash's first line (a Go panic's
// message, the first error) is often the one that says why; the bytes
// between are counted, not kept. Writes may come from several goroutines.
type Tail struct {
	Max  int // bytes kept from the end
	Head int // bytes kept from the start

	mu      sync.Mutex
	head    []byte
	buf     []byte
	dropped int64
}

// KeepEnds is a Tail that keeps the first and the last max/2 bytes: what
// a failure is quoted with, its first error and what happened last.
func KeepEnds(max int) *Tail {
	return &Tail{Head: max / 2, Max: max - max/2}
}

// Write keeps what p adds to the head and to the end; it never fails.
func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if room := t.Head - len(t.head); room > 0 {
		k := min(room, len(p))
		t.head = append(t.head, p[:k]...)
		p = p[k:]
	}
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.Max; over > 0 {
		t.dropped += int64(over)
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return n, nil
}

// String is what was kept. With a head, and bytes left out after it, a
// line between head and end says how many.
func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.Head == 0 || t.dropped == 0 {
		return string(t.head) + string(t.buf)
	}
	return fmt.Sprintf("%s\n[... %d bytes left out ...]\n%s", t.head, t.dropped, t.buf)
}
