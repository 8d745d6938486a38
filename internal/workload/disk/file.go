package disk

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// scratchDir returns the directory to write in: dir (the dir parameter)
// when set, else the run's scratch directory, else the system's temporary one.
func scratchDir(dir string, env workload.Env) (string, error) {
	if dir == "" {
		dir = env.ScratchDir
	}
	if dir == "" {
		dir = os.TempDir()
	}
	st, err := os.Stat(dir)
	if err != nil {
		return "", fmt.Errorf("parameter dir: %w; give an existing directory on the disk to measure", err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("parameter dir: %s is not a directory", dir)
	}
	return dir, nil
}

// fileConfig is the parameters disk.seq and disk.rand share: one test file
// of size bytes in dir, read and written block bytes at a time, in passes
// until they are steady.
type fileConfig struct {
	size, block int64
	dir         string
	steadyConfig
}

// Check implements workload.Checker: the file is a whole number of
// blocks, blocks are a multiple of 512 bytes so that O_DIRECT can use
// them, and the steady-state window fits in the passes.
func (c *fileConfig) Check() error {
	switch {
	case c.block < 512 || c.block%512 != 0 || c.block > 1<<30:
		return fmt.Errorf("parameter block_size: %d bytes must be a multiple of 512 from 512 to 1GiB, e.g. 4KiB or 1MiB", c.block)
	case c.size < c.block || c.size%c.block != 0:
		return fmt.Errorf("parameter size: %d bytes must be a whole number (1 or more) of blocks of %d bytes", c.size, c.block)
	}
	return c.steadyConfig.check()
}

// fillBlock fills buf with pseudo-random bytes, so that no filesystem can
// compress or deduplicate the file, and stamps it with the block number.
func fillBlock(buf []byte, r *rand.Rand, n int64) {
	for i := 0; i+8 <= len(buf); i += 8 {
		binary.LittleEndian.PutUint64(buf[i:], r.Uint64())
	}
	stamp(buf, n)
}

// stamp writes the block number n at the start of buf.
func stamp(buf []byte, n int64) { binary.LittleEndian.PutUint64(buf, uint64(n)) }

// stamped returns the block number at the start of buf.
func stamped(buf []byte) int64 { return int64(binary.LittleEndian.Uint64(buf)) }

// createFile creates a new file in dir and writes size bytes to it in
// blocks of len(buf), each stamped with its number, then fsyncs it. It
// returns the open file (for writing) and the time from the first write to
// the end of fsync. The caller removes the file.
func createFile(ctx context.Context, dir, pattern string, size int64, buf []byte) (*os.File, time.Duration, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, 0, fmt.Errorf("creating the test file: %w", err)
	}
	start := time.Now()
	err = eachBlock(ctx, size, len(buf), func(n int64) error {
		stamp(buf, n)
		if _, err := f.Write(buf); err != nil {
			return fmt.Errorf("writing %s: %w", f.Name(), err)
		}
		return nil
	})
	if err != nil {
		return f, 0, err
	}
	if err := f.Sync(); err != nil {
		return f, 0, fmt.Errorf("fsync of %s: %w", f.Name(), err)
	}
	return f, time.Since(start), nil
}

// eachBlock calls do with the number of each block of size bytes in
// blocks of block bytes, in order, and stops at do's first error. It looks
// at ctx every 64 blocks: the loop of the sequential phases.
func eachBlock(ctx context.Context, size int64, block int, do func(n int64) error) error {
	for n := int64(0); n*int64(block) < size; n++ {
		if n%64 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if err := do(n); err != nil {
			return err
		}
	}
	return nil
}

// removeFile closes and removes f, ignoring a nil f.
func removeFile(f *os.File) {
	if f != nil {
		f.Close()
		os.Remove(f.Name())
	}
}

// mbps converts bytes in a time to MB/s (1e6 bytes per second).
func mbps(bytes int64, d time.Duration) float64 { return float64(bytes) / 1e6 / d.Seconds() }
