package cli

import (
	"bytes"
	"io"
	"regexp"
	"sync"
)

// progressLine matches the lines of the progress reporter (internal/
// progress) outside a terminal: the count at the start and the periodic
// "N/M runs done" line.
var progressLine = regexp.MustCompile(`^(\d+ runs to do( \(\d+ done before\))?|\d+/\d+ runs done, .*)$`)

// quietLog is what run --quiet logs through: w without the progress lines;
// warnings, failed runs and everything else still reach it.
func quietLog(w io.Writer) io.Writer { return &lineFilter{w: w, drop: progressLine} }

// lineFilter passes whole lines to w, dropping those drop matches.
type lineFilter struct {
	w    io.Writer
	drop *regexp.Regexp

	mu      sync.Mutex
	pending []byte
}

func (f *lineFilter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pending = append(f.pending, p...)
	for {
		i := bytes.IndexByte(f.pending, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := f.pending[:i+1]
		if !f.drop.Match(bytes.TrimRight(line, "\n")) {
			if _, err := f.w.Write(line); err != nil {
				return len(p), err
			}
		}
		f.pending = f.pending[i+1:]
	}
}
