package sched

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestParsePolicy(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Policy
		err  bool
	}{
		{"fifo", FIFO, false}, {"SCHED_FIFO", FIFO, false}, {" rr ", RR, false}, {"other", Other, false},
		{"normal", Other, false}, {"deadline", 0, true}, {"", 0, true},
	} {
		got, err := ParsePolicy(tt.in)
		if (err != nil) != tt.err || (!tt.err && got != tt.want) {
			t.Errorf("%q: %v %v", tt.in, got, err)
		}
	}
	if err := CheckPriority(FIFO, 0); err == nil {
		t.Error("fifo at priority 0 accepted")
	}
	if err := CheckPriority(Other, 0); err != nil {
		t.Error(err)
	}
}

func TestLeibnizApproachesPi(t *testing.T) {
	if got := Leibniz(1_000_000); math.Abs(got-math.Pi) > 2e-6 {
		t.Errorf("Leibniz(1e6) = %v", got)
	}
}

func TestSleepUntil(t *testing.T) {
	for range 5 {
		deadline := Now() + 2_000_000
		if e := SleepUntil(deadline); e != 0 {
			t.Fatal(e)
		}
		// Never before the deadline; how long after it depends on what
		// else runs (the bound only catches a sleep that does not end).
		if late := Now() - deadline; late < 0 || late > 10_000_000_000 {
			t.Errorf("woke %d ns after the deadline", late)
		}
	}
	start := Now()
	SleepUntil(start - 1_000_000)                     // in the past: returns at once
	if took := Now() - start; took > 10_000_000_000 { // not a sleep of the deadline's value
		t.Errorf("a past deadline took %d ns", took)
	}
}

func TestBlockPreemption(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := BlockPreemption(); err != nil {
		t.Fatal(err)
	}
	var set unix.Sigset_t
	if err := unix.PthreadSigmask(unix.SIG_BLOCK, nil, &set); err != nil {
		t.Fatal(err)
	}
	UnblockPreemption()
	var after unix.Sigset_t
	_ = unix.PthreadSigmask(unix.SIG_BLOCK, nil, &after)
	bit := uint(unix.SIGURG) - 1
	width := uint(64)
	if len(set.Val) == 32 {
		width = 32
	}
	if uint64(set.Val[bit/width])&(1<<(bit%width)) == 0 || uint64(after.Val[bit/width])&(1<<(bit%width)) != 0 {
		t.Errorf("SIGURG blocked %v, unblocked after %v", set.Val[0], after.Val[0])
	}
}

func TestPermissionError(t *testing.T) {
	err := error(&PermissionError{Policy: FIFO, Priority: 49, Why: "the process lacks CAP_SYS_NICE"})
	if !errors.Is(err, unix.EPERM) || !strings.Contains(err.Error(), "SCHED_FIFO priority 49") || !strings.Contains(err.Error(), "policy: other") {
		t.Errorf("%v", err)
	}
	if _, err := Pin(runtime.NumCPU()); err == nil {
		t.Error("pinned to a CPU that does not exist")
	}
}
