package mem

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// MBW is the mem.mbw workload: the mbw tool's three copy tests between two
// arrays of 64-bit words.
var MBW = workload.Define[mbwConfig](workload.Info{
	Name:     "mem.mbw",
	Summary:  "memory copy bandwidth of mbw's memcpy, dumb and mcblock tests",
	SeedTool: "mbw",
	Metrics: []workload.Metric{
		{Name: "memcpy_MiBps", Unit: "MiB/s", Label: "memcpy MiB/s", HigherIsBetter: true,
			Description: mbwRate("one copy() of the whole array (Go's memmove, as mbw's memcpy)")},
		{Name: "dumb_MiBps", Unit: "MiB/s", Label: "dumb MiB/s", HigherIsBetter: true,
			Description: mbwRate("b[i] = a[i] over []int64, one element at a time")},
		{Name: "mcblock_MiBps", Unit: "MiB/s", Label: "mcblock MiB/s", HigherIsBetter: true,
			Description: mbwRate("copy() of block_size bytes at a time")},
	},
})

// mbwRate describes a copy test's rate: how it copies, and the figure.
func mbwRate(how string) string {
	return how + "; size in MiB divided by the mean time of the iterations, as mbw's AVG line"
}

type mbwConfig struct {
	size, block int64 // bytes
	iterations  int
	words       int // int64 elements per array
	blockWords  int
}

// Declare implements workload.Declarer.
func (c *mbwConfig) Declare(d *workload.Decl) {
	d.Bytes(&c.size, "size", 64<<20, "bytes in each of the two arrays (mbw's array size)")
	d.Int(&c.iterations, "iterations", 50, "copies per test, averaged (mbw -n)")
	d.Min(1)
	d.Bytes(&c.block, "block_size", 256<<10, "block of the mcblock test (mbw -b)")
}

// mbwConfig keeps these optional abilities (checked by the compiler).
var _ workload.MemoryNeeder = (*mbwConfig)(nil)

// Check implements workload.Checker.
func (c *mbwConfig) Check() error {
	size, block := c.size, c.block
	switch {
	case size < 8 || size%8 != 0 || size/8 > int64(maxInt/2):
		return fmt.Errorf("parameter size: %d bytes must be a positive multiple of 8 that fits in memory, e.g. 64MiB", size)
	case block < 8 || block%8 != 0 || block > size:
		return fmt.Errorf("parameter block_size: %d bytes must be a positive multiple of 8 no larger than size (%d)", block, size)
	}
	c.words, c.blockWords = int(size/8), int(block/8)
	return checkFits(2*size, "size")
}

// maxInt is the largest int on this platform (2^31-1 on 32-bit ARM).
const maxInt = int(^uint(0) >> 1)

// Run implements workload.Config.
func (c *mbwConfig) Run(ctx context.Context, _ workload.Env, e workload.Emitter) error {
	a, b := make([]int64, c.words), make([]int64, c.words)
	for i := range a { // touch every page before timing, as mbw's arrays are
		a[i], b[i] = int64(i), -1
	}
	tests := []struct {
		metric string
		copy   func(dst, src []int64)
	}{
		{"memcpy_MiBps", func(dst, src []int64) { copy(dst, src) }},
		{"dumb_MiBps", copyDumb},
		{"mcblock_MiBps", func(dst, src []int64) { copyBlocks(dst, src, c.blockWords) }},
	}
	mib := float64(c.words) * 8 / (1 << 20)
	e.Note("size_MiB", strconv.FormatFloat(mib, 'f', -1, 64))
	e.Note("block_size", strconv.Itoa(c.blockWords*8))
	for _, t := range tests {
		var total time.Duration
		for i := 0; i < c.iterations; i++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			b[len(b)-1] = -1
			start := time.Now()
			t.copy(b, a)
			total += time.Since(start)
			if b[0] != a[0] || b[len(b)-1] != a[len(a)-1] {
				return fmt.Errorf("%s: the copy is wrong at its ends", t.metric)
			}
		}
		e.Sample(t.metric, mib/(total.Seconds()/float64(c.iterations)))
	}
	return nil
}

// copyDumb is mbw's dumb test: one element at a time, in a plain loop.
func copyDumb(dst, src []int64) {
	dst = dst[:len(src)]
	//lint:ignore S1001 the element loop is what mbw's dumb test measures; copy would call memmove
	for i, v := range src {
		dst[i] = v
	}
}

// copyBlocks is mbw's mcblock test: copy() of block elements at a time,
// then the remainder.
func copyBlocks(dst, src []int64, block int) {
	for len(src) >= block {
		copy(dst[:block], src[:block])
		dst, src = dst[block:], src[block:]
	}
	copy(dst, src)
}

// MemoryBytes implements workload.MemoryNeeder: mbw's two arrays.
func (c *mbwConfig) MemoryBytes() int64 {
	return 2 * 8 * int64(c.words)
}
