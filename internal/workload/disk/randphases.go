package disk

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// phase is what the timed phases of disk.rand share: the file, the
// configuration, an aligned buffer of one block and the generator of
// offsets (seeded the same in every run, so every environment visits the
// same blocks in the same order).
type phase struct {
	file    *os.File
	cfg     *randConfig
	buf     []byte
	offsets *rand.Rand
}

// next returns the offset of a uniformly random block.
func (ph *phase) next() int64 { return ph.offsets.Int64N(ph.cfg.size/ph.cfg.block) * ph.cfg.block }

// each calls do with the number of the operation and a random offset, one
// after the other for the phase's duration, and returns how many it did and
// when it started. It looks at ctx every 256 operations, to keep the check
// out of the timed loop's cost.
func (ph *phase) each(ctx context.Context, do func(op, off int64) error) (int64, time.Time, error) {
	var ops int64
	start := time.Now()
	for ; time.Since(start) < ph.cfg.duration; ops++ {
		if ops%256 == 0 && ctx.Err() != nil {
			return 0, start, ctx.Err()
		}
		if err := do(ops, ph.next()); err != nil {
			return 0, start, err
		}
	}
	return ops, start, nil
}

// reads reads random blocks for the phase's duration and returns how many,
// the time taken and the cache method used.
func (ph *phase) reads(ctx context.Context) (int64, time.Duration, string, error) {
	name := ph.file.Name()
	f, err := openDirect(name, os.O_RDONLY, ph.buf)
	if err != nil {
		return 0, 0, "", fmt.Errorf("opening %s to read: %w", name, err)
	}
	direct, method := f != nil, cacheODirect
	if !direct {
		method = dropCache(ph.file, true)
		if f, err = os.Open(name); err != nil {
			return 0, 0, "", err
		}
		adviseRandom(f)
	}
	defer f.Close()
	ops, start, err := ph.each(ctx, func(_, off int64) error {
		if _, err := f.ReadAt(ph.buf, off); err != nil {
			return fmt.Errorf("reading %d bytes at %d of %s: %w", len(ph.buf), off, name, err)
		}
		if !direct {
			forget(f, off, ph.cfg.block)
		}
		return nil
	})
	if err != nil {
		return 0, 0, "", err
	}
	return ops, time.Since(start), method, nil
}

// writes writes random blocks for the phase's duration, with an fdatasync
// every sync_every writes and one at the end, and returns how many, the
// time taken including the last sync, and "o_direct" or "buffered".
func (ph *phase) writes(ctx context.Context) (int64, time.Duration, string, error) {
	name := ph.file.Name()
	f, err := openDirect(name, os.O_RDWR, ph.buf)
	if err != nil {
		return 0, 0, "", fmt.Errorf("opening %s to write: %w", name, err)
	}
	method := cacheODirect
	if f == nil {
		method = "buffered"
		if f, err = os.OpenFile(name, os.O_WRONLY, 0); err != nil {
			return 0, 0, "", err
		}
	}
	defer f.Close()
	sync := func() error {
		if err := unix.Fdatasync(int(f.Fd())); err != nil {
			return fmt.Errorf("fdatasync of %s: %w", name, err)
		}
		return nil
	}
	ops, start, err := ph.each(ctx, func(op, off int64) error {
		if _, err := f.WriteAt(ph.buf, off); err != nil {
			return fmt.Errorf("writing %d bytes at %d of %s: %w", len(ph.buf), off, name, err)
		}
		if ph.cfg.syncEvery > 0 && (op+1)%int64(ph.cfg.syncEvery) == 0 {
			return sync()
		}
		return nil
	})
	if err != nil {
		return 0, 0, "", err
	}
	if err := sync(); err != nil {
		return 0, 0, "", err
	}
	return ops, time.Since(start), method, nil
}
