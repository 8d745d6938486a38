package wire

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
)

func output(t *testing.T, args ...string) string {
	t.Helper()
	out, _ := exec.Command(args[0], args[1:]...).CombinedOutput()
	return string(out)
}

func TestCreateShapedWireAndRemoveIt(t *testing.T) {
	testenv.RequireNetns(t)
	ctx := context.Background()
	w, err := Create(ctx, 100e6)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Remove(ctx)
	if !strings.Contains(output(t, "ip", "netns", "list"), w.Namespace) {
		t.Errorf("namespace %s not listed", w.Namespace)
	}
	if !strings.Contains(output(t, "ip", "-n", w.Namespace, "addr", "show", w.ClientLink), w.ClientAddr.String()+"/30") {
		t.Errorf("client end lacks %s", w.ClientAddr)
	}
	for _, q := range []string{output(t, "tc", "qdisc", "show", "dev", w.HostLink), output(t, "tc", "-n", w.Namespace, "qdisc", "show", "dev", w.ClientLink)} {
		if !strings.Contains(q, "tbf") || !strings.Contains(q, "100Mbit") {
			t.Errorf("end not shaped to 100 Mbit/s: %s", q)
		}
	}
	if !w.HostAddr.IsPrivate() && !strings.HasPrefix(w.HostAddr.String(), "198.1") {
		t.Errorf("host address %s is not in 198.18.0.0/15", w.HostAddr)
	}
	if err := w.Remove(ctx); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(output(t, "ip", "netns", "list"), w.Namespace) || strings.Contains(output(t, "ip", "link"), w.HostLink+"@") {
		t.Error("wire still there after Remove")
	}
	if err := w.Remove(ctx); err != nil {
		t.Errorf("second Remove: %v", err)
	}
}

func TestRemoveStaleTakesOnlyDeadProcessesWires(t *testing.T) {
	testenv.RequireNetns(t)
	ctx := context.Background()
	const dead = 4194000 // above any pid this test meets
	host, client := linkNames(dead, 1)
	ns := NamePrefix + "4194000-1"
	for _, s := range [][]string{{"ip", "netns", "add", ns}, {"ip", "link", "add", host, "type", "veth", "peer", "name", client, "netns", ns}} {
		if out, err := exec.Command(s[0], s[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", s, out)
		}
	}
	mine, err := Create(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer mine.Remove(ctx)
	removed, err := RemoveStale(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || removed[0] != ns {
		t.Errorf("removed %v, want only %s", removed, ns)
	}
	list := output(t, "ip", "netns", "list")
	if strings.Contains(list, ns) || strings.Contains(output(t, "ip", "link"), host) {
		t.Error("the dead process's wire is still there")
	}
	if !strings.Contains(list, mine.Namespace) {
		t.Error("RemoveStale removed a live process's wire")
	}
}

func TestFailuresSayWhatToDo(t *testing.T) {
	saved := run
	defer func() { run = saved }()
	cases := []struct {
		failing string
		err     error
		want    string
	}{
		{"ip", &cmdError{args: []string{"ip", "netns", "add", "x"}, out: "mount --make-shared /run/netns failed: Operation not permitted"}, "needs root"},
		{"tc", &cmdError{args: []string{"tc", "qdisc", "add"}, out: "Error: Specified qdisc kind is unknown."}, "tbf qdisc"},
		{"ip", &cmdError{args: []string{"ip"}, err: exec.ErrNotFound}, "apt-get install iproute2"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			var calls [][]string
			run = func(_ context.Context, args ...string) error {
				calls = append(calls, args)
				if args[0] == c.failing && !strings.Contains(strings.Join(args, " "), " del ") {
					return c.err
				}
				return nil
			}
			_, err := Create(context.Background(), 1e6)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
			if !errors.Is(err, c.err) {
				t.Errorf("error %v does not wrap the command's", err)
			}
			// What was made is removed again.
			last := strings.Join(calls[len(calls)-1], " ")
			if !strings.HasPrefix(last, "ip netns del "+NamePrefix) {
				t.Errorf("last command %q, want the namespace removed", last)
			}
		})
	}
}

func TestFormatRate(t *testing.T) {
	for in, want := range map[float64]string{100e6: "100mbit", 1e9: "1gbit", 1.5e9: "1.5gbit", 64e3: "64kbit", 500: "500bit"} {
		if got := FormatRate(in); got != want {
			t.Errorf("FormatRate(%v) = %s, want %s", in, got, want)
		}
	}
}
