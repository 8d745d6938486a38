package cpuset

import (
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

func TestParseAndString(t *testing.T) {
	for _, tt := range []struct {
		in, out string
		want    Set
	}{
		{"0-3,6", "0-3,6", Set{0, 1, 2, 3, 6}},
		{"5,1,2,2", "1-2,5", Set{1, 2, 5}},
		{" 7 \n", "7", Set{7}},
	} {
		got, err := Parse(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) || got.String() != tt.out {
			t.Errorf("Parse(%q) = %v (%q), %v", tt.in, got, got.String(), err)
		}
	}
	for _, bad := range []string{"", "a", "3-1", "-1", "1-"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestSplitAndWithin(t *testing.T) {
	s := Set{0, 1, 2, 3, 4}
	parts, err := s.Split(2)
	if err != nil || parts[0].String() != "0-1" || parts[1].String() != "2-4" {
		t.Errorf("Split(2) = %v, %v", parts, err)
	}
	if _, err := s.Split(6); err == nil || !strings.Contains(err.Error(), "cannot give 6 instances") {
		t.Errorf("Split(6): %v", err)
	}
	if err := (Set{0, 9}).Within(Set{0, 1}); err == nil || !strings.Contains(err.Error(), "CPU(s) 9 are not online") {
		t.Errorf("Within: %v", err)
	}
}

func TestPinProcessRestrictsAffinity(t *testing.T) {
	online, err := Online()
	if err != nil {
		t.Skip(err)
	}
	before := Allowed()
	defer func() {
		all, _ := Parse(before)
		PinProcess(all)
	}()
	if err := PinProcess(online[:1]); err != nil {
		t.Fatal(err)
	}
	if got := Allowed(); got != online[:1].String() {
		t.Errorf("after pinning to %s the process may run on %s", online[:1], got)
	}
}

// TestPinPIDRestrictsAnotherProcess pins a child process, as
// bench/fuseplace pins fuse-overlayfs's daemon, and reads its affinity
// back from /proc.
func TestPinPIDRestrictsAnotherProcess(t *testing.T) {
	online, err := Online()
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep to pin:", err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	last := online[len(online)-1:]
	if err := PinPID(cmd.Process.Pid, last); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Cpus_allowed_list:\t" + last.String() + "\n"; !strings.Contains(string(b), want) {
		t.Errorf("after pinning to %s the child's status lacks %q", last, want)
	}
	if err := PinPID(1<<30, last); err == nil {
		t.Error("pinning a process that does not exist: no error")
	}
}

// TestParseIsBounded: issue 15 item 8, cpus: "0-4000000000" looped for ever.
func TestParseIsBounded(t *testing.T) {
	if _, err := Parse("0-4000000000"); err == nil || !strings.Contains(err.Error(), "beyond the largest CPU number") {
		t.Fatalf("err = %v", err)
	}
	if s, err := Parse("8190-8191"); err != nil || len(s) != 2 {
		t.Fatalf("the largest CPUs: %v, %v", s, err)
	}
}
