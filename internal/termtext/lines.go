package termtext

import (
	"bytes"
	"io"
	"sync"
)

// Lines is an io.Writer that hands line each whole line written to it,
// without its "\n", in order; the end of a line waits for its "\n". It may
// be written to from several goroutines. A write returns line's first error.
func Lines(line func(string) error) io.Writer { return &lines{line: line} }

type lines struct {
	line    func(string) error
	mu      sync.Mutex
	pending []byte
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending = append(l.pending, p...)
	for {
		i := bytes.IndexByte(l.pending, '\n')
		if i < 0 {
			return len(p), nil
		}
		s := string(l.pending[:i])
		l.pending = l.pending[i+1:]
		if err := l.line(s); err != nil {
			return len(p), err
		}
	}
}
