package registry

import (
	"slices"
	"testing"
)

func TestRegistry(t *testing.T) {
	r := Registry[int]{Unknown: "unknown number %q; valid numbers: %s", First: []string{"zero", "absent"}}
	r.Register("two", 2)
	r.Register("one", 1)
	r.Register("zero", 0)
	if got, want := r.Names(), []string{"zero", "one", "two"}; !slices.Equal(got, want) {
		t.Errorf("names %v, want %v", got, want)
	}
	if v, err := r.Lookup("two"); err != nil || v != 2 {
		t.Errorf("two: %v, %v", v, err)
	}
	if _, err := r.Lookup("three"); err == nil || err.Error() != `unknown number "three"; valid numbers: zero, one, two` {
		t.Errorf("three: %v", err)
	}
	if !r.Has("one") || r.Has("three") {
		t.Error("Has is wrong")
	}
	defer func() {
		if recover() == nil {
			t.Error("a duplicate registration did not panic")
		}
	}()
	r.Register("one", 11)
}

// Has tells whether name is registered.
func (r *Registry[T]) Has(name string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	_, ok := r.items[name]
	return ok
}
