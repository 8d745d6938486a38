package worker

import (
	"fmt"
	"strings"
	"sync"
)

// tail keeps the first and the last max/2 bytes written to it: a worker's
// stderr, quoted when a run fails. The head holds a crash's first line (a
// Go panic's message, the first error), the tail what happened last; the
// bytes between are counted, not kept.
type tail struct {
	mu      sync.Mutex
	max     int
	head    []byte
	buf     []byte
	dropped int64
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	half := t.max / 2
	if room := half - len(t.head); room > 0 {
		k := min(room, len(p))
		t.head = append(t.head, p[:k]...)
		p = p[k:]
	}
	t.buf = append(t.buf, p...)
	if keep := t.max - half; len(t.buf) > keep {
		t.dropped += int64(len(t.buf) - keep)
		t.buf = append([]byte(nil), t.buf[len(t.buf)-keep:]...)
	}
	return n, nil
}

// text is what was kept, with the number of bytes left out between head
// and tail.
func (t *tail) text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dropped == 0 {
		return string(t.head) + string(t.buf)
	}
	return fmt.Sprintf("%s\n[... %d bytes left out ...]\n%s", t.head, t.dropped, t.buf)
}

// suffix renders the kept text for an error message, or "" when empty.
func (t *tail) suffix() string {
	s := strings.TrimSpace(t.text())
	if s == "" {
		return ""
	}
	return "; stderr: " + s
}
