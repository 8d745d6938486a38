package disk

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"
)

// readBack reads the whole file f from the device in blocks of len(buf)
// and checks each block's stamp. It returns the read time and the cache
// method used.
func readBack(ctx context.Context, f *os.File, size int64, buf []byte) (time.Duration, string, error) {
	r, method, err := openRead(f.Name(), f, buf)
	if err != nil {
		return 0, "", fmt.Errorf("opening %s to read: %w", f.Name(), err)
	}
	defer r.Close()
	start := time.Now()
	err = eachBlock(ctx, size, len(buf), func(n int64) error {
		if _, err := io.ReadFull(r, buf); err != nil {
			return fmt.Errorf("reading block %d of %s: %w", n, f.Name(), err)
		}
		if got := stamped(buf); got != n {
			return fmt.Errorf("block %d of %s reads back as block %d: the storage returned wrong data", n, f.Name(), got)
		}
		return nil
	})
	if err != nil {
		return 0, "", err
	}
	return time.Since(start), method, nil
}

// rewrite is bonnie++'s rewrite test on f: with the file's cached pages
// dropped first (by fadvise only: the reads are buffered in every
// environment, as in bonnie++), read each block, change it, seek back, write it; fsync at
// the end. It returns the time including the fsync and the cache method.
func rewrite(ctx context.Context, f *os.File, size int64, buf []byte) (time.Duration, string, error) {
	if err := f.Sync(); err != nil {
		return 0, "", err
	}
	method := dropCache(f, false)
	rw, err := os.OpenFile(f.Name(), os.O_RDWR, 0)
	if err != nil {
		return 0, "", fmt.Errorf("opening %s to rewrite: %w", f.Name(), err)
	}
	defer rw.Close()
	start := time.Now()
	err = eachBlock(ctx, size, len(buf), func(n int64) error {
		if _, err := io.ReadFull(rw, buf); err != nil {
			return fmt.Errorf("rewrite: reading block %d of %s: %w", n, f.Name(), err)
		}
		buf[len(buf)-1]++ // dirty the block
		if _, err := rw.Seek(-int64(len(buf)), io.SeekCurrent); err != nil {
			return fmt.Errorf("rewrite: seeking in %s: %w", f.Name(), err)
		}
		if _, err := rw.Write(buf); err != nil {
			return fmt.Errorf("rewrite: writing block %d of %s: %w", n, f.Name(), err)
		}
		return nil
	})
	if err != nil {
		return 0, "", err
	}
	if err := rw.Sync(); err != nil {
		return 0, "", fmt.Errorf("rewrite: fsync of %s: %w", f.Name(), err)
	}
	return time.Since(start), method, nil
}
