package termtext

import "testing"

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"format", "format", 0}, {"fromat", "format", 1}, {"formt", "format", 1},
		{"formatx", "format", 1}, {"fxrmat", "format", 1}, {"abc", "", 3}, {"kitten", "sitting", 3},
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	flags := []string{"db", "format", "o", "study", "max-overhead"}
	for _, c := range []struct {
		name string
		want string
	}{
		{"fromat", "format"},
		{"studdy", "study"},
		{"max-overhed", "max-overhead"},
		{"bd", "db"},
		{"zzzzzz", ""},
		{"", ""},
		{"cpu.prim", "cpu.prime"},
		{"dokcer-bridge", "docker-bridge"},
		{"mem", "mem.stream"},
	} {
		valid := flags
		switch c.name {
		case "cpu.prim", "mem":
			valid = []string{"cpu.prime", "mem.stream", "net.tcp"}
		case "dokcer-bridge":
			valid = []string{"native", "docker-bridge", "docker-host"}
		}
		if got := Closest(c.name, valid); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	if got := DidYouMean("fromat", flags); got != `; did you mean "format"?` {
		t.Errorf("DidYouMean = %q", got)
	}
	if got := DidYouMean("nothing-like-it", flags); got != "" {
		t.Errorf("DidYouMean of a far name = %q, want nothing", got)
	}
}
