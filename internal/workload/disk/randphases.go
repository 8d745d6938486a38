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
// after the other for d, and returns how many it did and when it started.
// It looks at ctx every 256 operations, to keep the check out of the timed
// loop's cost.
func (ph *phase) each(ctx context.Context, d time.Duration, do func(op, off int64) error) (int64, time.Time, error) {
	var ops int64
	start := time.Now()
	for ; time.Since(start) < d; ops++ {
		if ops%256 == 0 && ctx.Err() != nil {
			return 0, start, ctx.Err()
		}
		if err := do(ops, ph.next()); err != nil {
			return 0, start, err
		}
	}
	return ops, start, nil
}

// passes runs a phase in passes of duration / steady_window each, until
// the last steady_window passes are steady or max_passes ran (steady.go),
// with end (an fdatasync, or nothing) closing each pass inside its time.
// It returns the rate of every pass and how they stood; the phase's figure
// is the window's mean rate.
func (ph *phase) passes(ctx context.Context, do func(op, off int64) error, end func() error) ([]float64, steadiness, error) {
	rule := ph.cfg.rule()
	slice := ph.cfg.duration / time.Duration(rule.window)
	var rates []float64
	var st steadiness
	var total int64
	for pass := 0; pass < ph.cfg.maxPasses; pass++ {
		ops, start, err := ph.each(ctx, slice, func(op, off int64) error { return do(total+op, off) })
		if err != nil {
			return nil, st, err
		}
		if err := end(); err != nil {
			return nil, st, err
		}
		total += ops
		rates = append(rates, float64(ops)/time.Since(start).Seconds())
		if st = rule.judge(rates); st.steady {
			break
		}
	}
	return rates, st, nil
}

// reads reads random blocks in passes (ph.passes) and returns the rate of
// each pass, how they stood and the cache method used.
func (ph *phase) reads(ctx context.Context) ([]float64, steadiness, string, error) {
	name := ph.file.Name()
	f, err := openDirect(name, os.O_RDONLY, ph.buf)
	if err != nil {
		return nil, steadiness{}, "", fmt.Errorf("opening %s to read: %w", name, err)
	}
	direct, method := f != nil, cacheODirect
	if !direct {
		method = dropCache(ph.file, true)
		if f, err = os.Open(name); err != nil {
			return nil, steadiness{}, "", err
		}
		adviseRandom(f)
	}
	defer f.Close()
	rates, st, err := ph.passes(ctx, func(_, off int64) error {
		if _, err := f.ReadAt(ph.buf, off); err != nil {
			return fmt.Errorf("reading %d bytes at %d of %s: %w", len(ph.buf), off, name, err)
		}
		if !direct {
			forget(f, off, ph.cfg.block)
		}
		return nil
	}, func() error { return nil })
	if err != nil {
		return nil, st, "", err
	}
	return rates, st, method, nil
}

// writes writes random blocks in passes (ph.passes), with an fdatasync
// every sync_every writes and one at the end of each pass, inside its
// time, and returns the rate of each pass, how they stood and "o_direct"
// or "buffered".
func (ph *phase) writes(ctx context.Context) ([]float64, steadiness, string, error) {
	name := ph.file.Name()
	f, err := openDirect(name, os.O_RDWR, ph.buf)
	if err != nil {
		return nil, steadiness{}, "", fmt.Errorf("opening %s to write: %w", name, err)
	}
	method := cacheODirect
	if f == nil {
		method = "buffered"
		if f, err = os.OpenFile(name, os.O_WRONLY, 0); err != nil {
			return nil, steadiness{}, "", err
		}
	}
	defer f.Close()
	sync := func() error {
		if err := unix.Fdatasync(int(f.Fd())); err != nil {
			return fmt.Errorf("fdatasync of %s: %w", name, err)
		}
		return nil
	}
	rates, st, err := ph.passes(ctx, func(op, off int64) error {
		if _, err := f.WriteAt(ph.buf, off); err != nil {
			return fmt.Errorf("writing %d bytes at %d of %s: %w", len(ph.buf), off, name, err)
		}
		if ph.cfg.syncEvery > 0 && (op+1)%int64(ph.cfg.syncEvery) == 0 {
			return sync()
		}
		return nil
	}, sync)
	if err != nil {
		return nil, st, "", err
	}
	return rates, st, method, nil
}
