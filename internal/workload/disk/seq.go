package disk

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"

	"github.com/boxtax/boxtax/internal/workload"
)

// Seq is the disk.seq workload: write a file sequentially and fsync it,
// read it back from the device, and rewrite it in place as bonnie++ does;
// the read and the rewrite are repeated in passes until they are steady
// (steady.go), and their figures are the steady window's.
var Seq = defineOnStorage[seqConfig](workload.Info{
	Name:     "disk.seq",
	Summary:  "sequential write, read and rewrite of one file, as fio and bonnie++",
	SeedTool: "fio / bonnie++ sequential",
	Metrics: []workload.Metric{
		{Name: "write_MBps", Unit: "MB/s", Label: "write MB/s", HigherIsBetter: true,
			Description: "size / time of buffered writes of every block plus the final fsync, in 1e6 bytes/s"},
		{Name: "read_MBps", Unit: "MB/s", Label: "read MB/s", HigherIsBetter: true,
			Description: "size / time to read the file back block by block with the page cache bypassed (O_DIRECT) or emptied (see note read_cache), in 1e6 bytes/s: the mean of the steady-state window's passes (notes read_passes, steady_state)"},
		{Name: "rewrite_MBps", Unit: "MB/s", Label: "rewrite MB/s", HigherIsBetter: true,
			Description: "size / time to read each block, change it, seek back and write it (bonnie++'s rewrite), plus the final fsync, in 1e6 bytes/s: the mean of the steady-state window's passes (notes rewrite_passes, steady_state)"},
	},
})

// seqConfig is disk.seq's parameters, checked.
type seqConfig struct{ fileConfig }

// Declare implements workload.Declarer.
func (c *seqConfig) Declare(d *workload.Decl) {
	d.Bytes(&c.size, "size", 256<<20, "size of the test file")
	d.Bytes(&c.block, "block_size", 1<<20, "bytes per read or write call; a multiple of 512")
	d.String(&c.dir, "dir", "", "directory for the test file; empty means the run's scratch directory")
	c.steadyConfig.declare(d, 4, "passes of the read and rewrite phases on the written file: they are repeated until the last steady_window of them are steady (design note 015); 1 measures one pass and judges nothing")
}

// Run implements workload.Config.
func (c *seqConfig) Run(ctx context.Context, env workload.Env, e workload.Emitter) error {
	size, block := c.size, c.block
	dir, err := scratchDir(c.dir, env)
	if err != nil {
		return err
	}
	noteFS(e, dir)
	noteDirty(e)
	buf := alignedBuffer(int(block))
	fillBlock(buf, rand.New(rand.NewPCG(1, 2)), 0)

	f, writeTime, err := createFile(ctx, dir, "boxtax-disk-seq-*.dat", size, buf)
	defer removeFile(f)
	if err != nil {
		return err
	}
	e.Sample("write_MBps", mbps(size, writeTime))

	// The written file is the preconditioning; then passes of read and
	// rewrite until both are steady (steady.go).
	var reads, rewrites []float64
	var readMethod, rewriteMethod string
	var readState, rewriteState steadiness
	rule := c.rule()
	for pass := 0; pass < c.maxPasses; pass++ {
		readTime, method, err := readBack(ctx, f, size, buf)
		if err != nil {
			return err
		}
		readMethod, reads = method, append(reads, mbps(size, readTime))
		rewriteTime, method, err := rewrite(ctx, f, size, buf)
		if err != nil {
			return err
		}
		rewriteMethod, rewrites = method, append(rewrites, mbps(size, rewriteTime))
		readState, rewriteState = rule.judge(reads), rule.judge(rewrites)
		if readState.steady && rewriteState.steady {
			break
		}
	}
	e.Note("read_cache", readMethod)
	e.Note("rewrite_read_cache", rewriteMethod)
	e.Sample("read_MBps", readState.windowMean)
	e.Sample("rewrite_MBps", rewriteState.windowMean)
	e.Note("size_bytes", strconv.FormatInt(size, 10))
	c.noteSteadiness(e, []phaseState{{"read", "MB/s", reads, readState}, {"rewrite", "MB/s", rewrites, rewriteState}})
	return nil
}

// openRead opens name for reading from the device: with O_DIRECT when the
// filesystem takes it, else buffered after dropping the cached pages of
// the file (cached is any open handle of it). It returns the method used,
// as noted in "read_cache".
func openRead(name string, cached *os.File, buf []byte) (*os.File, string, error) {
	f, err := openDirect(name, os.O_RDONLY, buf)
	if err != nil {
		return nil, "", err
	}
	if f != nil {
		forget(cached, 0, 0) // not needed, but leaves no stale pages either
		return f, cacheODirect, nil
	}
	method := dropCache(cached, true)
	f, err = os.Open(name)
	return f, method, err
}
