package lazyre

import "testing"

func TestGetCompilesOnceAndMatches(t *testing.T) {
	r := New(`^a(b+)c$`)
	if r.re != nil {
		t.Fatal("compiled before its first Get")
	}
	first := r.Get()
	if m := first.FindStringSubmatch("abbbc"); len(m) != 2 || m[1] != "bbb" {
		t.Fatalf("FindStringSubmatch = %q, want the group bbb", m)
	}
	if r.Get() != first {
		t.Fatal("a second Get compiled again")
	}
	if got := first.String(); got != `^a(b+)c$` {
		t.Fatalf("String() = %q", got)
	}
}

func TestBadExpressionPanicsOnFirstGet(t *testing.T) {
	r := New(`a(`) // New itself must not panic
	defer func() {
		if recover() == nil {
			t.Fatal("Get of an expression that does not compile did not panic")
		}
	}()
	r.Get()
}
