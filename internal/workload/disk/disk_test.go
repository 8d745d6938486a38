package disk

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

func TestSizes(t *testing.T) {
	tests := []struct {
		name      string
		params    workload.Params
		wantSize  int64
		wantBlock int64
		wantErr   string
	}{
		{name: "units", params: workload.Params{"size": "8MiB", "block_size": "4KiB"}, wantSize: 8 << 20, wantBlock: 4096},
		{name: "one block", params: workload.Params{"size": 512, "block_size": 512}, wantSize: 512, wantBlock: 512},
		{name: "block not sectors", params: workload.Params{"size": "1MiB", "block_size": 1000}, wantErr: "block_size"},
		{name: "block zero", params: workload.Params{"size": "1MiB", "block_size": 0}, wantErr: "block_size"},
		{name: "size smaller than block", params: workload.Params{"size": "4KiB", "block_size": "1MiB"}, wantErr: "parameter size"},
		{name: "size not whole blocks", params: workload.Params{"size": "1.5MiB", "block_size": "1MiB"}, wantErr: "parameter size"},
		{name: "size unreadable", params: workload.Params{"size": "big", "block_size": "1MiB"}, wantErr: "size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			size, block, err := sizes(tt.params)
			workloadtest.CheckErr(t, err, tt.wantErr)
			if tt.wantErr == "" && (size != tt.wantSize || block != tt.wantBlock) {
				t.Errorf("got %d, %d; want %d, %d", size, block, tt.wantSize, tt.wantBlock)
			}
		})
	}
}

func TestDefaultsValid(t *testing.T) {
	for _, w := range []workload.Workload{Seq, Rand} {
		p := workloadtest.Check(t, w.Info(), nil)
		if err := workload.Validate(w, p); err != nil {
			t.Errorf("%s: defaults rejected: %v", w.Info().Name, err)
		}
	}
}

func TestAlignedBuffer(t *testing.T) {
	for _, n := range []int{512, 4096, 1 << 20} {
		b := alignedBuffer(n)
		if len(b) != n || uintptr(unsafe.Pointer(&b[0]))%directAlign != 0 {
			t.Errorf("alignedBuffer(%d): len %d at %p", n, len(b), &b[0])
		}
	}
}

func TestFsType(t *testing.T) {
	if got := fsType(t.TempDir()); got == "" || strings.HasPrefix(got, "unknown") {
		t.Errorf("fsType of a temporary directory = %q", got)
	}
	if got := fsType(filepath.Join(t.TempDir(), "missing")); !strings.HasPrefix(got, "unknown") {
		t.Errorf("fsType of a missing directory = %q", got)
	}
}

// TestRunBothWays runs each workload with O_DIRECT allowed and with it
// refused, and checks the samples, the notes and that no file is left.
func TestRunBothWays(t *testing.T) {
	tests := []struct {
		w       workload.Workload
		params  workload.Params
		metrics []string
	}{
		{Seq, workload.Params{"size": "2MiB", "block_size": "64KiB"}, []string{"write_MBps", "read_MBps", "rewrite_MBps"}},
		{Rand, workload.Params{"size": "1MiB", "duration": "50ms", "sync_every": 8}, []string{"read_iops", "write_iops"}},
	}
	for _, tt := range tests {
		for _, direct := range []bool{true, false} {
			name := tt.w.Info().Name + map[bool]string{true: "/direct", false: "/buffered"}[direct]
			t.Run(name, func(t *testing.T) {
				tryDirect = direct
				dropCachesPath = filepath.Join(t.TempDir(), "drop_caches") // never the real one
				testenv.WriteFile(t, dropCachesPath, nil, 0o600)
				defer func() { tryDirect, dropCachesPath = true, "/proc/sys/vm/drop_caches" }()
				dir := t.TempDir()
				p := workloadtest.Check(t, tt.w.Info(), tt.params)
				var r workloadtest.Recorder
				if err := workload.Run(context.Background(), tt.w, p, workload.Env{ScratchDir: dir}, &r); err != nil {
					t.Fatal(err)
				}
				for _, m := range tt.metrics {
					if v := r.Samples[m]; len(v) != 1 || !(v[0] > 0) {
						t.Errorf("%s: %v", m, v)
					}
				}
				method := r.Notes["read_cache"]
				if direct && method != cacheODirect && fsType(dir) != "tmpfs" {
					t.Logf("O_DIRECT refused on %s", fsType(dir))
				}
				if !direct && method != cacheFadvise && method != cacheDropAll && method != cacheUncertain {
					t.Errorf("read_cache = %q after refusing O_DIRECT", method)
				}
				assertEmpty(t, dir)
			})
		}
	}
}

func TestRunErrors(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		w       workload.Workload
		ctx     context.Context
		params  workload.Params
		wantErr string
	}{
		{"seq missing dir", Seq, context.Background(), workload.Params{"dir": "/no/such/dir"}, "parameter dir"},
		{"rand missing dir", Rand, context.Background(), workload.Params{"dir": "/no/such/dir"}, "parameter dir"},
		{"rand zero duration", Rand, context.Background(), workload.Params{"duration": 0}, "duration"},
		{"rand negative sync", Rand, context.Background(), workload.Params{"sync_every": -1}, "sync_every"},
		{"seq cancelled", Seq, cancelled, workload.Params{"size": "1MiB", "block_size": "4KiB"}, "canceled"},
		{"rand cancelled", Rand, cancelled, workload.Params{"size": "1MiB"}, "canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := workloadtest.Check(t, tt.w.Info(), tt.params)
			workloadtest.CheckErr(t, workload.Run(tt.ctx, tt.w, p, workload.Env{ScratchDir: dir}, &workloadtest.Recorder{}), tt.wantErr)
			assertEmpty(t, dir)
		})
	}
}

func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range left {
		t.Errorf("%s left behind in %s", f.Name(), dir)
	}
}

// sizes reads and checks the size and block_size parameters.
func sizes(p workload.Params) (size, block int64, err error) {
	c, err := workload.Parse(p, &seqConfig{})
	return c.size, c.block, err
}
