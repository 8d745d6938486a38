package disk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// IOZone is the disk.iozone workload: IOZone's throughput mode (-t): each
// of threads children writes, rewrites, reads and rereads its own file at
// once, and a phase's figure is the children's aggregate throughput (the
// sum of each child's file size over its own time), IOZone's "Children see
// throughput for N initial writers".
var IOZone = defineOnStorage[iozoneConfig](workload.Info{
	Name:     "disk.iozone",
	Summary:  "IOZone's throughput mode: threads children write, rewrite, read and reread their own files at once",
	SeedTool: "IOZone -t (throughput mode)",
	Metrics: []workload.Metric{
		{Name: "write_KBps", Unit: "KB/s", Label: "write KB/s", HigherIsBetter: true, Description: iozoneRate("create and write its file")},
		{Name: "rewrite_KBps", Unit: "KB/s", Label: "rewrite KB/s", HigherIsBetter: true, Description: iozoneRate("write its existing file again")},
		{Name: "read_KBps", Unit: "KB/s", Label: "read KB/s", HigherIsBetter: true, Description: iozoneRate("read its file")},
		{Name: "reread_KBps", Unit: "KB/s", Label: "reread KB/s", HigherIsBetter: true, Description: iozoneRate("read its file again")},
	},
})

// iozonePhases are the phases in the order IOZone runs them (-i 0 -i 1).
var iozonePhases = []string{"write", "rewrite", "read", "reread"}

// iozoneRate describes a phase's figure: what each child does in it.
func iozoneRate(what string) string {
	return "sum over the children of file_size / the child's time to " + what + ", in KB/s (1024 bytes), as IOZone's \"Children see throughput\""
}

// iozoneConfig is disk.iozone's parameters, checked.
type iozoneConfig struct {
	threads       int
	size, record  int64
	direct, fsync bool
	dir           string
}

// Declare implements workload.Declarer.
func (c *iozoneConfig) Declare(d *workload.Decl) {
	d.Int(&c.threads, "threads", 4, "children working at once, each on its own file (IOZone -t)")
	d.Range(1, 256)
	d.Bytes(&c.size, "file_size", 100<<20, "size of each child's file (IOZone -s; in throughput mode per child)")
	d.Bytes(&c.record, "record_size", 32<<10, "bytes per read or write call (IOZone -r); a multiple of 512, of 4096 with direct")
	d.Bool(&c.direct, "direct", false, "open the files with O_DIRECT (IOZone -I); false is IOZone's default: buffered, so reads may come from the page cache")
	d.Bool(&c.fsync, "fsync", false, "include an fsync of the file in the write and rewrite times (IOZone -e); false is IOZone's default")
	d.String(&c.dir, "dir", "", "directory for the files; empty means the run's scratch directory")
}

// Check implements workload.Checker.
func (c *iozoneConfig) Check() error {
	align := int64(512)
	if c.direct {
		align = directAlign
	}
	switch {
	case c.record < align || c.record%align != 0 || c.record > 64<<20:
		return fmt.Errorf("parameter record_size: %d bytes must be a multiple of %d up to 64MiB, e.g. 32KiB", c.record, align)
	case c.size < c.record || c.size%c.record != 0:
		return fmt.Errorf("parameter file_size: %d bytes must be a whole number (1 or more) of %d-byte records", c.size, c.record)
	}
	return nil
}

// Run implements workload.Config.
func (c *iozoneConfig) Run(ctx context.Context, env workload.Env, e workload.Emitter) error {
	dir, err := scratchDir(c.dir, env)
	if err != nil {
		return err
	}
	noteFS(e, dir)
	e.Note("io", map[bool]string{true: "O_DIRECT (IOZone -I)", false: "buffered (IOZone's default): reads may come from the page cache"}[c.direct])
	e.Note("fsync_in_write_times", strconv.FormatBool(c.fsync))
	e.Note("files", fmt.Sprintf("%d x %d bytes in %d-byte records", c.threads, c.size, c.record))

	names := make([]string, c.threads)
	for i := range names {
		names[i] = filepath.Join(dir, fmt.Sprintf("boxtax-iozone-%d-%d.dat", os.Getpid(), i))
	}
	defer func() {
		for _, n := range names {
			os.Remove(n)
		}
	}()
	bufs := make([][]byte, c.threads)
	for i := range bufs {
		bufs[i] = alignedBuffer(int(c.record))
		fillBlock(bufs[i], rand.New(rand.NewPCG(uint64(i), 7)), 0)
	}
	for _, phase := range iozonePhases {
		times, err := iozonePhase(ctx, c, phase, names, bufs)
		if err != nil {
			return fmt.Errorf("disk.iozone %s: %w", phase, err)
		}
		total := 0.0
		for _, d := range times {
			total += float64(c.size) / 1024 / d.Seconds()
		}
		e.Sample(phase+"_KBps", total)
	}
	return nil
}

// iozonePhase runs one phase in every child at once, released together,
// and returns each child's time.
func iozonePhase(ctx context.Context, c *iozoneConfig, phase string, names []string, bufs [][]byte) ([]time.Duration, error) {
	times := make([]time.Duration, len(names))
	errs := make([]error, len(names))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			times[i], errs[i] = iozoneChild(ctx, c, phase, names[i], bufs[i])
		}()
	}
	close(start)
	wg.Wait()
	return times, errors.Join(errs...)
}

// iozoneChild does one phase on one file and returns its time: from the
// open to the last record (and the fsync, when asked).
func iozoneChild(ctx context.Context, c *iozoneConfig, phase, name string, buf []byte) (time.Duration, error) {
	flag := os.O_RDONLY
	switch phase {
	case "write":
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	case "rewrite":
		flag = os.O_WRONLY
	}
	if c.direct {
		flag |= syscall.O_DIRECT
	}
	begin := time.Now()
	f, err := os.OpenFile(name, flag, 0o600)
	if err != nil {
		if c.direct && errors.Is(err, syscall.EINVAL) {
			return 0, fmt.Errorf("the filesystem of %s refuses O_DIRECT: set direct: false", filepath.Dir(name))
		}
		return 0, err
	}
	defer f.Close()
	records := c.size / c.record
	writing := phase == "write" || phase == "rewrite"
	for n := int64(0); n < records; n++ {
		if n%256 == 0 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
		if writing {
			stamp(buf, n)
			if _, err := f.Write(buf); err != nil {
				return 0, fmt.Errorf("writing %s: %w", name, err)
			}
			continue
		}
		if _, err := io.ReadFull(f, buf); err != nil {
			return 0, fmt.Errorf("reading %s: %w", name, err)
		}
		if got := stamped(buf); got != n {
			return 0, fmt.Errorf("reading %s: record %d holds record %d's data: the filesystem returned wrong data", name, n, got)
		}
	}
	if writing && c.fsync {
		if err := f.Sync(); err != nil {
			return 0, fmt.Errorf("fsync of %s: %w", name, err)
		}
	}
	return time.Since(begin), nil
}
