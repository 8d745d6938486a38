package sched

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// KeepOthersOff leaves the measured CPU to the calling thread, and Restore
// gives the others their CPUs back.
func TestKeepOthersOff(t *testing.T) {
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil || all.Count() < 2 {
		t.Skip("needs a process that may run on 2 CPUs")
	}
	cpu := -1
	for i := 0; i < 1024 && cpu < 0; i++ {
		if all.IsSet(i) {
			cpu = i
		}
	}
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		defer close(done)
		before := unix.Gettid()
		var orig unix.CPUSet
		_ = unix.SchedGetaffinity(0, &orig)
		defer unix.SchedSetaffinity(0, &orig)
		if err := Pin(cpu); err != nil {
			t.Error(err)
			return
		}
		iso, err := KeepOthersOff(cpu)
		if err != nil {
			t.Error(err)
			return
		}
		if iso.Moved == 0 {
			t.Error("no thread moved: a Go process has several")
		}
		tids, _ := threads()
		for _, tid := range tids {
			var set unix.CPUSet
			if unix.SchedGetaffinity(tid, &set) != nil {
				continue
			}
			if tid != before && set.IsSet(cpu) {
				t.Errorf("thread %d may still run on CPU %d", tid, cpu)
			}
		}
		iso.Restore()
		for tid, want := range iso.saved {
			var set unix.CPUSet
			if unix.SchedGetaffinity(tid, &set) == nil && set != want {
				t.Errorf("thread %d: CPUs %v after Restore, want %v", tid, set, want)
			}
		}
	}()
	<-done
}
