package disk

import (
	"context"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// Rand is the disk.rand workload: random reads, then random writes, of one
// block at a time at block-aligned offsets of a file, each phase for a
// fixed time, as sysbench fileio's rndrd and rndwr tests.
var Rand = defineOnStorage[randConfig](workload.Info{
	Name:     "disk.rand",
	Summary:  "random 4 KiB reads and writes on one file, as sysbench fileio",
	SeedTool: "sysbench fileio random",
	Metrics: []workload.Metric{
		{Name: "read_iops", Unit: "IOPS", Label: "rand read IOPS", HigherIsBetter: true,
			Description: "reads completed / time, the mean of the steady-state window's passes (notes read_passes, steady_state); one read at a time at a uniformly random block, from the device (O_DIRECT, or buffered with each block's cached page dropped after it is read, see note read_cache)"},
		{Name: "write_iops", Unit: "IOPS", Label: "rand write IOPS", HigherIsBetter: true,
			Description: "writes completed / time including an fdatasync every sync_every writes and one at the end of each pass, the mean of the steady-state window's passes (notes write_passes, steady_state); one write at a time at a uniformly random block"},
	},
})

// randConfig is disk.rand's parameters, checked.
type randConfig struct {
	fileConfig
	duration  time.Duration
	syncEvery int
}

// Declare implements workload.Declarer.
func (c *randConfig) Declare(d *workload.Decl) {
	d.Bytes(&c.size, "size", 128<<20, "size of the test file, written before the timed phases")
	d.Bytes(&c.block, "block_size", 4<<10, "bytes per read or write; a multiple of 512 (sysbench --file-block-size)")
	d.Duration(&c.duration, "duration", 2*time.Second, "length of each phase, reads then writes")
	d.Positive()
	d.Int(&c.syncEvery, "sync_every", 64, "writes between fdatasync calls; 0 syncs only at the end (sysbench --file-fsync-freq, which defaults to 100)")
	d.Min(0, "sync only at the end")
	d.String(&c.dir, "dir", "", "directory for the test file; empty means the run's scratch directory")
	c.steadyConfig.declare(d, 4, "passes of each phase, each duration / steady_window long: they are repeated until the last steady_window of them are steady (design note 015), so a phase takes from duration to max_passes / steady_window times it; 1 makes one pass of duration and judges nothing")
}

// Run implements workload.Config.
func (c *randConfig) Run(ctx context.Context, env workload.Env, e workload.Emitter) error {
	dir, err := scratchDir(c.dir, env)
	if err != nil {
		return err
	}
	noteFS(e, dir)
	noteDirty(e)
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
	reads, readState, method, err := ph.reads(ctx)
	if err != nil {
		return err
	}
	e.Note("read_cache", method)
	e.Sample("read_iops", readState.windowMean)

	writes, writeState, method, err := ph.writes(ctx)
	if err != nil {
		return err
	}
	e.Note("write_cache", method)
	e.Sample("write_iops", writeState.windowMean)
	c.noteSteadiness(e, []phaseState{{"read", "IOPS", reads, readState}, {"write", "IOPS", writes, writeState}})
	return nil
}
