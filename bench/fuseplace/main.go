// Command fuseplace measures how much of a container's random-write rate on
// a FUSE storage driver (Docker's fuse-overlayfs) depends on the CPU the
// driver's daemon runs on (docs/design/015, "Why the container's random
// writes spread"). It runs disk.rand's write loop (4 KiB at random
// block-aligned offsets of a 128 MiB file, O_DIRECT where the file system
// allows it, an fdatasync every 64 writes) natively and in a container,
// both pinned to CPU 0, and moves the container's fuse-overlayfs daemon,
// a process of the host, between CPU 0 (the writer's) and CPU 1 every few
// seconds (sched_setaffinity on each of its threads), printing the rate in
// each placement and their ratio; then once more with the daemon left
// where the scheduler puts it.
//
//	CGO_ENABLED=0 go run ./bench/fuseplace   # about 40 s; as root, with Docker and 2 CPUs
//	CGO_ENABLED=0 go run ./bench/fuseplace -phase 5s   # each placement held 5 s
//
// The daemon is told from the others by being the one fuse-overlayfs
// process that started with the container: run it on a machine where no
// other container starts meanwhile. It changes the affinity of no other
// process, and the daemon ends with its container.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/stats"
)

func main() {
	write := flag.String("write", "", "(inside the container) write in this directory for -for, printing the rate every -every")
	run := flag.Duration("for", 0, "with -write: how long")
	every := flag.Duration("every", 500*time.Millisecond, "the interval of the rates printed")
	phase := flag.Duration("phase", 4*time.Second, "how long each placement of the daemon is held")
	cycles := flag.Int("cycles", 3, "placements on the same CPU and on the other one, each")
	flag.Parse()
	if *write != "" {
		if err := writer(*write, *run, *every); err != nil {
			fmt.Fprintln(os.Stderr, "fuseplace:", err)
			os.Exit(1)
		}
		return
	}
	if err := bench(*phase, *cycles, *every); err != nil {
		fmt.Fprintln(os.Stderr, "fuseplace:", err)
		os.Exit(1)
	}
}

// writer is disk.rand's write phase, unbounded: it prints "UNIXSECONDS RATE"
// every interval.
func writer(dir string, d, every time.Duration) error {
	const size, block = 128 << 20, 4096
	raw := make([]byte, 1<<20+4096)
	off := int(4096-uintptr(unsafe.Pointer(&raw[0]))%4096) % 4096
	buf := raw[off : off+1<<20]
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	name := filepath.Join(dir, fmt.Sprintf("fuseplace-%d.dat", os.Getpid()))
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	defer os.Remove(name)
	for w := 0; w < size; w += len(buf) {
		if _, err := f.Write(buf); err != nil {
			return err
		}
	}
	if err := f.Sync(); err != nil {
		return err
	}
	f.Close()
	g, err := os.OpenFile(name, os.O_RDWR|unix.O_DIRECT, 0)
	if err != nil {
		if g, err = os.OpenFile(name, os.O_RDWR, 0); err != nil {
			return err
		}
	}
	defer g.Close()
	fmt.Println("ready")
	r := rand.New(rand.NewPCG(3, 4))
	start := time.Now()
	last, n := start, 0
	for ops := 1; time.Since(start) < d; ops++ {
		if _, err := g.WriteAt(buf[:block], r.Int64N(size/block)*block); err != nil {
			return err
		}
		n++
		if ops%64 == 0 {
			if err := unix.Fdatasync(int(g.Fd())); err != nil {
				return err
			}
			if now := time.Now(); now.Sub(last) >= every {
				fmt.Printf("%.3f %.1f\n", float64(now.UnixNano())/1e9, float64(n)/now.Sub(last).Seconds())
				last, n = now, 0
			}
		}
	}
	return nil
}

// move is when the daemon was pinned to cpu (-1: let go to every CPU),
// in Unix seconds.
type move struct {
	at  float64
	cpu int
}

func unixNow() float64 { return float64(time.Now().UnixNano()) / 1e9 }

// sample is one printed rate.
type sample struct {
	at   float64
	rate float64
}

func bench(phase time.Duration, cycles int, every time.Duration) error {
	if online, err := cpuset.Online(); err != nil || len(online) < 2 || online[0] != 0 || online[1] != 1 {
		return fmt.Errorf("this needs CPUs 0 and 1 online (online: %v, %v): the daemon is moved between them", online, err)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	// The native baseline: the same loop on CPU 0, in the host's temporary directory.
	total := time.Duration(2*cycles)*phase + 2*phase
	native, err := pinnedRun(exec.Command("taskset", "-c", "0", self, "-write", os.TempDir(), "-for", (2*phase).String(), "-every", every.String()), nil)
	if err != nil {
		return fmt.Errorf("native: %w", err)
	}
	// The image: this binary alone.
	dir, err := os.MkdirTemp("", "fuseplace-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := copyFile(self, filepath.Join(dir, "fuseplace")); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte("FROM scratch\nCOPY fuseplace /fuseplace\nENTRYPOINT [\"/fuseplace\"]\n"), 0o644); err != nil {
		return err
	}
	if out, err := exec.Command("docker", "build", "-q", "-t", "boxtax-fuseplace", dir).CombinedOutput(); err != nil {
		return fmt.Errorf("docker build: %v\n%s", err, out)
	}
	defer exec.Command("docker", "rmi", "-f", "boxtax-fuseplace").Run()
	driver, _ := exec.Command("docker", "info", "--format", "{{.Driver}}").Output()
	before := daemons()
	name := fmt.Sprintf("boxtax-fuseplace-%d", os.Getpid())
	defer exec.Command("docker", "rm", "-f", name).Run()
	var moves []move
	moved := make(chan struct{}) // closed when the daemon is left to the scheduler
	container, err := pinnedRun(exec.Command("docker", "run", "--rm", "--name", name, "--cpuset-cpus", "0", "boxtax-fuseplace",
		"-write", "/", "-for", total.String(), "-every", every.String()), func() error {
		var daemon int
		for _, p := range daemons() {
			if !slices.Contains(before, p) {
				daemon = p
			}
		}
		if daemon == 0 {
			return fmt.Errorf("no fuse-overlayfs daemon started with the container (Docker's storage driver here: %s): this measures a FUSE storage driver only", strings.TrimSpace(string(driver)))
		}
		// place moves the daemon and records when; a move the kernel
		// refuses is said, and the placement is recorded all the same (the
		// daemon may have ended with its container).
		place := func(cpu int) {
			if err := pin(daemon, cpu); err != nil {
				fmt.Fprintln(os.Stderr, "fuseplace:", err)
			}
			moves = append(moves, move{unixNow(), cpu})
		}
		go func() {
			defer close(moved)
			for c := 0; c < cycles; c++ {
				for _, cpu := range []int{0, 1} {
					place(cpu)
					time.Sleep(phase)
				}
			}
			place(-1)
		}()
		return nil
	})
	if err != nil {
		return fmt.Errorf("container: %w", err)
	}
	<-moved
	// Each sample to the placement it was measured in; the first interval
	// after a move is left out (it straddles the move).
	rates := map[int][]float64{}
	for _, s := range container {
		cpu, since := -2, 0.0
		for _, m := range moves {
			if m.at <= s.at {
				cpu, since = m.cpu, m.at
			}
		}
		if cpu > -2 && s.at-since > every.Seconds()*1.5 {
			rates[cpu] = append(rates[cpu], s.rate)
		}
	}
	var nat []float64
	for _, s := range native[1:] {
		nat = append(nat, s.rate)
	}
	fmt.Printf("random 4 KiB writes, an fdatasync every 64, the writer on CPU 0 (storage driver %s)\n\n", strings.TrimSpace(string(driver)))
	fmt.Printf("%-44s %8s %8s %8s %4s\n", "", "mean/s", "min", "max", "n")
	line := func(what string, v []float64) float64 {
		if len(v) == 0 {
			fmt.Printf("%-44s %8s\n", what, "-")
			return 0
		}
		m := stats.Mean(v)
		fmt.Printf("%-44s %8.0f %8.0f %8.0f %4d\n", what, m, slices.Min(v), slices.Max(v), len(v))
		return m
	}
	n := line("native", nat)
	same := line("container, daemon on CPU 0 (the writer's)", rates[0])
	other := line("container, daemon on CPU 1", rates[1])
	free := line("container, daemon where the scheduler puts it", rates[-1])
	if same > 0 && other > 0 {
		fmt.Printf("\nthe daemon on the writer's CPU: %.2f times the rate on the other (%.0f %% of native, against %.0f %%)\n", same/other, 100*same/n, 100*other/n)
	}
	if free > 0 && n > 0 {
		fmt.Printf("left to the scheduler: %.0f %% of native\n", 100*free/n)
	}
	return nil
}

// pinnedRun runs cmd, reading "UNIXSECONDS RATE" lines from its output;
// started, when given, is called once the writer says "ready".
func pinnedRun(cmd *exec.Cmd, started func() error) ([]sample, error) {
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	var got []sample
	sc := bufio.NewScanner(out)
	var failed error
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 1 && f[0] == "ready" {
			if started != nil && failed == nil {
				failed = started()
				if failed != nil {
					_ = cmd.Process.Kill()
				}
			}
			continue
		}
		if len(f) == 2 {
			at, e1 := strconv.ParseFloat(f[0], 64)
			rate, e2 := strconv.ParseFloat(f[1], 64)
			if e1 == nil && e2 == nil {
				got = append(got, sample{at, rate})
			}
		}
	}
	err = cmd.Wait()
	if failed != nil {
		return nil, failed
	}
	if err != nil {
		return nil, err
	}
	if len(got) < 2 {
		return nil, fmt.Errorf("%s printed %d rates", cmd.Path, len(got))
	}
	return got, nil
}

// daemons are the pids of the fuse-overlayfs processes.
func daemons() []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if comm, err := os.ReadFile(filepath.Join("/proc", e.Name(), "comm")); err == nil && strings.TrimSpace(string(comm)) == "fuse-overlayfs" {
			pids = append(pids, pid)
		}
	}
	return pids
}

// pin sets the affinity of every thread of pid to cpu; cpu -1 lets them
// run on every online CPU.
func pin(pid, cpu int) error {
	set := cpuset.Set{cpu}
	if cpu < 0 {
		var err error
		if set, err = cpuset.Online(); err != nil {
			return err
		}
	}
	return cpuset.PinPID(pid, set)
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o755)
}
