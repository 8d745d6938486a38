// Package registry holds named things of one kind that plug into boxtax:
// workloads and environments. An unknown name answers with
// the list of valid ones.
package registry

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/boxtax/boxtax/internal/termtext"
)

// Registry maps names to things of type T. Register is called from init
// functions; Lookup and Names from anywhere, at any time.
type Registry[T any] struct {
	// Unknown is the error for a name not registered: a format with %q
	// for the name and %s for the valid names, joined by ", ".
	Unknown string
	// First are names listed before the others, which follow in name order.
	First []string

	mu    sync.RWMutex
	items map[string]T
}

// Register adds v under name; it panics on a duplicate name, a mistake of
// the program, not of its user.
func (r *Registry[T]) Register(name string, v T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.items[name]; dup {
		panic(fmt.Sprintf("registry: duplicate registration of %s", name))
	}
	if r.items == nil {
		r.items = map[string]T{}
	}
	r.items[name] = v
}

// Names lists the registered names: First's, then the others in order.
func (r *Registry[T]) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var names []string
	for _, n := range r.First {
		if _, ok := r.items[n]; ok {
			names = append(names, n)
		}
	}
	var rest []string
	for n := range r.items {
		if !slices.Contains(r.First, n) {
			rest = append(rest, n)
		}
	}
	slices.Sort(rest)
	return append(names, rest...)
}

// Lookup finds the thing registered under name; an unknown name yields
// the Unknown error listing the valid ones, and the nearest of them when
// the name looks like a typo of it ("did you mean").
func (r *Registry[T]) Lookup(name string) (T, error) {
	r.mu.RLock()
	v, ok := r.items[name]
	r.mu.RUnlock()
	if !ok {
		var zero T
		names := r.Names()
		return zero, fmt.Errorf(r.Unknown+"%s", name, strings.Join(names, ", "), termtext.DidYouMean(name, names))
	}
	return v, nil
}
