package disk

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// Rand is the disk.rand workload: random reads, then random writes, of one
// block at a time at block-aligned offsets of a file, each phase for a
// fixed time, as sysbench fileio's rndrd and rndwr tests.
type Rand struct{}

func init() { workload.Register(Rand{}) }

// Info implements workload.Workload.
// UsesStorage: its figures are the storage it writes to.
func (Rand) UsesStorage() bool { return true }

func (Rand) Info() workload.Info {
	return workload.Info{
		Name:     "disk.rand",
		Summary:  "random 4 KiB reads and writes on one file, as sysbench fileio",
		SeedTool: "sysbench fileio random",
		Params:   workload.Declared(&randConfig{}),
		Metrics: []workload.Metric{
			{Name: "read_iops", Unit: "IOPS", Label: "rand read IOPS", HigherIsBetter: true,
				Description: "reads completed / phase time; one read at a time at a uniformly random block, from the device (O_DIRECT, or buffered with each block's cached page dropped after it is read, see note read_cache)"},
			{Name: "write_iops", Unit: "IOPS", Label: "rand write IOPS", HigherIsBetter: true,
				Description: "writes completed / phase time including an fdatasync every sync_every writes and one at the end; one write at a time at a uniformly random block"},
		},
	}
}

// randConfig is disk.rand's parameters, checked.
type randConfig struct {
	size, block int64
	duration    time.Duration
	syncEvery   int
	dir         string
}

// Declare implements workload.Declarer.
func (c *randConfig) Declare(d *workload.Decl) {
	d.Bytes(&c.size, "size", 128<<20, "size of the test file, written before the timed phases")
	d.Bytes(&c.block, "block_size", 4<<10, "bytes per read or write; a multiple of 512 (sysbench --file-block-size)")
	d.Duration(&c.duration, "duration", 2*time.Second, "length of each phase, reads then writes")
	d.Int(&c.syncEvery, "sync_every", 64, "writes between fdatasync calls; 0 syncs only at the end (sysbench --file-fsync-freq, which defaults to 100)")
	d.String(&c.dir, "dir", "", "directory for the test file; empty means the run's scratch directory")
}

// Check implements workload.Checker.
func (c *randConfig) Check() error {
	if err := checkSizes(c.size, c.block); err != nil {
		return err
	}
	switch {
	case c.duration <= 0:
		return fmt.Errorf("parameter duration: %v must be positive, e.g. 2s", c.duration)
	case c.syncEvery < 0:
		return fmt.Errorf("parameter sync_every: %d must be 0 (sync only at the end) or more", c.syncEvery)
	}
	return nil
}

// Configure implements workload.Workload.
func (Rand) Configure(p workload.Params) (workload.Config, error) {
	return workload.Parse(p, &randConfig{})
}

// Run implements workload.Config.
func (c *randConfig) Run(ctx context.Context, env workload.Env, e workload.Emitter) error {
	dir, err := scratchDir(c.dir, env)
	if err != nil {
		return err
	}
	noteFS(e, dir)
	e.Note("sync_every", strconv.Itoa(c.syncEvery))

	// The file is written in blocks of up to 1 MiB, which is quicker.
	prep := c.block
	for prep*2 <= 1<<20 && c.size%(prep*2) == 0 {
		prep *= 2
	}
	prepBuf := alignedBuffer(int(prep))
	fillBlock(prepBuf, rand.New(rand.NewPCG(1, 2)), 0)
	f, _, err := createFile(ctx, dir, "boxtax-disk-rand-*.dat", c.size, prepBuf)
	defer removeFile(f)
	if err != nil {
		return err
	}
	buf := alignedBuffer(int(c.block))
	copy(buf, prepBuf)

	ph := phase{file: f, cfg: c, buf: buf, offsets: rand.New(rand.NewPCG(3, 4))}
	reads, readTime, method, err := ph.reads(ctx)
	if err != nil {
		return err
	}
	emitPhase(e, "read", reads, readTime, method)

	writes, writeTime, method, err := ph.writes(ctx)
	if err != nil {
		return err
	}
	emitPhase(e, "write", writes, writeTime, method)
	return nil
}

// emitPhase records a phase of op ("read", "write"): how the page cache
// was handled (note op_cache), its operations (note ops) and their rate
// (op_iops).
func emitPhase(e workload.Emitter, op string, n int64, d time.Duration, cache string) {
	e.Note(op+"_cache", cache)
	e.Note(op+"s", strconv.FormatInt(n, 10))
	e.Sample(op+"_iops", float64(n)/d.Seconds())
}
