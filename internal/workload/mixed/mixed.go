// Package mixed is the load.mixed workload: the stress tool's CPU, memory,
// disk and generic I/O workers in the combinations of Morabito 2017 (seed
// 001, Table 3), to see what a device does under heterogeneous load, and as
// a background load for other studies (ctr.startup under stress -c N).
package mixed

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// levels are the seed's Table 3: workers of each kind per level.
var levels = map[string][4]int{ // cpu, vm, hdd, io
	"low":     {1, 1, 0, 0},
	"average": {1, 1, 1, 0},
	"high":    {1, 1, 1, 1},
	"custom":  {0, 0, 0, 0},
}

// Mixed is load.mixed.
var Mixed = workload.Define[config](workload.Info{
	Name:     "load.mixed",
	Summary:  "stress's CPU, memory, disk and I/O workers at the seed's low, average and high levels",
	SeedTool: "stress (Morabito 2017, Table 3)",
	Metrics: []workload.Metric{
		{Name: "cpu_loops_per_s", Unit: "1/s", Label: "cpu loops/s", HigherIsBetter: true,
			Description: "sqrt iterations of all CPU workers per second (blocks of 1e6)"},
		{Name: "vm_MiBps", Unit: "MiB/s", Label: "vm MiB/s", HigherIsBetter: true,
			Description: "memory allocated and touched by all memory workers per second"},
		{Name: "hdd_MBps", Unit: "MB/s", Label: "hdd MB/s", HigherIsBetter: true,
			Description: "bytes written and fsynced by all disk workers per second (1e6 bytes); 0 without disk workers", Secondary: true},
		{Name: "io_syncs_per_s", Unit: "1/s", Label: "syncs/s", HigherIsBetter: true,
			Description: "sync() calls of all I/O workers per second; 0 without I/O workers", Secondary: true},
	},
})

// config is load.mixed's parameters, checked: the workers of each kind
// are the level's plus the extra ones.
type config struct {
	level             string
	extra             [4]int // cpu, vm, hdd, io beyond the level's
	cpu, vm, hdd, io  int
	vmBytes, hddBytes int64
	duration          time.Duration
}

// Declare implements workload.Declarer.
func (c *config) Declare(d *workload.Decl) {
	d.String(&c.level, "level", "low", "low: 1 CPU + 1 memory worker; average: + 1 disk worker; high: + 1 generic I/O worker; custom: the counts below only")
	d.Int(&c.extra[0], "cpu", 0, "extra CPU workers (stress -c): sqrt in a loop")
	d.Range(0, 256)
	d.Int(&c.extra[1], "vm", 0, "extra memory workers (stress -m): allocate vm_bytes, touch every page, free, repeat")
	d.Range(0, 256)
	d.Int(&c.extra[2], "hdd", 0, "extra disk workers (stress -d): write hdd_bytes to a file, fsync, remove, repeat")
	d.Range(0, 256)
	d.Int(&c.extra[3], "io", 0, "extra generic I/O workers (stress -i): sync() in a loop")
	d.Range(0, 256)
	d.Bytes(&c.vmBytes, "vm_bytes", 256<<20, "what each memory worker allocates (stress --vm-bytes)")
	d.Min(4096)
	d.Bytes(&c.hddBytes, "hdd_bytes", 50e6, "what each disk worker writes (stress --hdd-bytes; the seed: 50 MB)")
	d.Min(4096)
	d.Duration(&c.duration, "duration", 60*time.Second, "how long to load the system; 0 runs until stopped (as a background load). The seed: 300 s")
	d.Min(0, "until stopped")
}

// config keeps these optional abilities (checked by the compiler).
var _ workload.MemoryNeeder = (*config)(nil)

// Check implements workload.Checker.
func (c *config) Check() error {
	base, ok := levels[c.level]
	if !ok {
		return fmt.Errorf("level %q: valid levels are low, average, high, custom", c.level)
	}
	extra := c.extra
	c.cpu, c.vm, c.hdd, c.io = base[0]+extra[0], base[1]+extra[1], base[2]+extra[2], base[3]+extra[3]
	if c.cpu+c.vm+c.hdd+c.io == 0 {
		return fmt.Errorf("no workers: choose a level or give cpu, vm, hdd or io")
	}
	return nil
}

// Run implements workload.Config.
func (c *config) Run(ctx context.Context, env workload.Env, e workload.Emitter) error {
	if c.duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.duration)
		defer cancel()
	}
	e.Note("workers", fmt.Sprintf("cpu=%d vm=%d hdd=%d io=%d", c.cpu, c.vm, c.hdd, c.io))
	var cpuLoops, vmBytes, hddBytes, syncs atomic.Int64
	errs := make(chan error, c.hdd)
	var wg sync.WaitGroup
	spawn := func(n int, fn func()) {
		for range n {
			wg.Add(1)
			go func() { defer wg.Done(); fn() }()
		}
	}
	start := time.Now()
	spawn(c.cpu, func() { cpuWorker(ctx, &cpuLoops) })
	spawn(c.vm, func() { vmWorker(ctx, c.vmBytes, &vmBytes) })
	for i := range c.hdd {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := hddWorker(ctx, filepath.Join(env.ScratchDir, fmt.Sprintf("hdd-%d", i)), c.hddBytes, &hddBytes); err != nil {
				errs <- err
			}
		}()
	}
	spawn(c.io, func() { ioWorker(ctx, &syncs) })
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	secs := time.Since(start).Seconds()
	e.Sample("cpu_loops_per_s", float64(cpuLoops.Load())/secs)
	e.Sample("vm_MiBps", float64(vmBytes.Load())/(1<<20)/secs)
	e.Sample("hdd_MBps", float64(hddBytes.Load())/1e6/secs)
	e.Sample("io_syncs_per_s", float64(syncs.Load())/secs)
	return nil
}

func cpuWorker(ctx context.Context, loops *atomic.Int64) {
	runtime.LockOSThread()
	x := 0.0
	// Every worker does at least one round, so a short or starved run still
	// reports work of every kind it was given.
	for first := true; first || ctx.Err() == nil; first = false {
		for i := 0; i < 1_000_000; i++ {
			x += math.Sqrt(float64(i) + x*1e-300)
		}
		loops.Add(1_000_000)
	}
	sink.Store(int64(x))
}

var sink atomic.Int64

func vmWorker(ctx context.Context, size int64, done *atomic.Int64) {
	page := int64(os.Getpagesize())
	for first := true; first || ctx.Err() == nil; first = false {
		buf := make([]byte, size)
		for i := int64(0); i < size; i += page {
			buf[i] = byte(i)
			if i%(64<<20) == 0 && i > 0 && ctx.Err() != nil {
				return
			}
		}
		done.Add(size)
		runtime.KeepAlive(buf)
	}
}

func hddWorker(ctx context.Context, path string, size int64, done *atomic.Int64) error {
	block := make([]byte, 1<<20)
	for i := range block {
		block[i] = byte(i * 7)
	}
	defer os.Remove(path)
	for first := true; first || ctx.Err() == nil; first = false {
		f, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("disk worker: %w", err)
		}
		for written := int64(0); written < size && (first || ctx.Err() == nil); {
			n := min(int64(len(block)), size-written)
			if _, err := f.Write(block[:n]); err != nil {
				f.Close()
				return fmt.Errorf("disk worker: %w", err)
			}
			written += n
			done.Add(n)
		}
		_ = f.Sync()
		f.Close()
		os.Remove(path)
	}
	return nil
}

func ioWorker(ctx context.Context, syncs *atomic.Int64) {
	for first := true; first || ctx.Err() == nil; first = false {
		syscall.Sync()
		syncs.Add(1)
	}
}

// MemoryBytes implements workload.MemoryNeeder: every memory worker's allocation.
func (c *config) MemoryBytes() int64 {
	return int64(c.vm) * c.vmBytes
}
