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
func (Rand) Info() workload.Info {
	return workload.Info{
		Name:     "disk.rand",
		Summary:  "random 4 KiB reads and writes on one file, as sysbench fileio",
		SeedTool: "sysbench fileio random",
		Params: []workload.Param{
			{Name: "size", Default: "128MiB", Description: "size of the test file, written before the timed phases"},
			{Name: "block_size", Default: "4KiB", Description: "bytes per read or write; a multiple of 512 (sysbench --file-block-size)"},
			{Name: "duration", Default: "2s", Description: "length of each phase, reads then writes"},
			{Name: "sync_every", Default: 64, Description: "writes between fdatasync calls; 0 syncs only at the end (sysbench --file-fsync-freq, which defaults to 100)"},
			{Name: "dir", Default: "", Description: "directory for the test file; empty means the run's scratch directory"},
		},
		Metrics: []workload.Metric{
			{Name: "read_iops", Unit: "IOPS", Label: "rand read IOPS", HigherIsBetter: true,
				Description: "reads completed / phase time; one read at a time at a uniformly random block, from the device (O_DIRECT, or buffered with each block's cached page dropped after it is read, see note read_cache)"},
			{Name: "write_iops", Unit: "IOPS", Label: "rand write IOPS", HigherIsBetter: true,
				Description: "writes completed / phase time including an fdatasync every sync_every writes and one at the end; one write at a time at a uniformly random block"},
		},
	}
}

type randConfig struct {
	size, block int64
	duration    time.Duration
	syncEvery   int
}

// Validate checks p, already merged with the defaults, without running.
func (Rand) Validate(p workload.Params) error { _, err := parseRand(p); return err }

func parseRand(p workload.Params) (randConfig, error) {
	var c randConfig
	var err error
	if c.size, c.block, err = sizes(p); err != nil {
		return c, err
	}
	if c.duration, err = p.Duration("duration"); err != nil {
		return c, err
	}
	if c.syncEvery, err = p.Int("sync_every"); err != nil {
		return c, err
	}
	if _, err = p.String("dir"); err != nil {
		return c, err
	}
	switch {
	case c.duration <= 0:
		return c, fmt.Errorf("parameter duration: %v must be positive, e.g. 2s", c.duration)
	case c.syncEvery < 0:
		return c, fmt.Errorf("parameter sync_every: %d must be 0 (sync only at the end) or more", c.syncEvery)
	}
	return c, nil
}

// Run implements workload.Workload.
func (Rand) Run(ctx context.Context, p workload.Params, env workload.Env, e workload.Emitter) error {
	c, err := parseRand(p)
	if err != nil {
		return err
	}
	dir, err := scratchDir(p, env)
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
	e.Note("read_cache", method)
	e.Note("reads", strconv.FormatInt(reads, 10))
	e.Sample("read_iops", float64(reads)/readTime.Seconds())

	writes, writeTime, method, err := ph.writes(ctx)
	if err != nil {
		return err
	}
	e.Note("write_cache", method)
	e.Note("writes", strconv.FormatInt(writes, 10))
	e.Sample("write_iops", float64(writes)/writeTime.Seconds())
	return nil
}
