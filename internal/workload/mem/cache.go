package mem

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/hostinfo"
)

// sysCPU is where Linux describes the processors' caches.
const sysCPU = "/sys/devices/system/cpu"

// lastLevelCache returns the total size in bytes of the last-level caches
// under root (normally sysCPU): the caches of the highest level, counted
// once per instance (an L3 shared by four cores is one cache, not four).
// It returns 0 and no error when the kernel does not describe the caches,
// as on many ARM boards.
func lastLevelCache(root string) (bytes int64, desc string, err error) {
	dirs, err := filepath.Glob(filepath.Join(root, "cpu[0-9]*", "cache", "index[0-9]*"))
	if err != nil || len(dirs) == 0 {
		return 0, "", err
	}
	type cache struct {
		level int
		size  int64
	}
	seen := map[string]cache{} // by level and the CPUs sharing it
	maxLevel := 0
	for _, d := range dirs {
		typ := readTrimmed(d, "type")
		if typ != "Data" && typ != "Unified" {
			continue
		}
		level, err := strconv.Atoi(readTrimmed(d, "level"))
		if err != nil {
			continue
		}
		size, err := parseCacheSize(readTrimmed(d, "size"))
		if err != nil {
			return 0, "", fmt.Errorf("reading %s: %w", d, err)
		}
		shared := readTrimmed(d, "shared_cpu_list")
		if shared == "" { // no sharing information: assume one per CPU
			shared = d
		}
		seen[strconv.Itoa(level)+"/"+shared] = cache{level, size}
		maxLevel = max(maxLevel, level)
	}
	count := 0
	for _, c := range seen {
		if c.level == maxLevel {
			bytes += c.size
			count++
		}
	}
	if count == 0 {
		return 0, "", nil
	}
	return bytes, fmt.Sprintf("%d x L%d, %d KiB in all", count, maxLevel, bytes>>10), nil
}

// parseCacheSize parses sysfs cache sizes such as "32K", "1024K" or "2M".
func parseCacheSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("cache size %q is not like 32K or 2M", s)
	}
	return n * mult, nil
}

func readTrimmed(dir, name string) string {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// checkFits returns an error when allocating bytes would leave the machine
// short of memory, so that the run fails with advice instead of being
// killed.
func checkFits(bytes int64, param string) error {
	avail := hostinfo.MemInfoBytes("MemAvailable")
	if avail > 0 && bytes > avail/10*8 {
		return fmt.Errorf("the arrays need %d MiB but only %d MiB of memory is available; lower %s", bytes>>20, avail>>20, param)
	}
	return nil
}
