// Package lazyre holds regular expressions that compile on first use
// rather than when their package initialises. Every boxtax process, a
// worker that runs one probe too, links every package, so a package-level
// regexp.MustCompile costs each start its compilation whether or not the
// process ever matches it (issue 40: a worker's start is part of its CPU
// per operation).
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled by its first Get. As with
// regexp.MustCompile, an expression that does not compile panics, at that
// first Get.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// New returns expr, to be compiled on first use.
func New(expr string) *Regexp { return &Regexp{expr: expr} }

// Get returns the compiled expression; every call returns the same one.
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}
