package mem

import (
	"path/filepath"
	"testing"

	"github.com/boxtax/boxtax/internal/hostinfo"
)

func TestLastLevelCache(t *testing.T) {
	tests := []struct {
		machine   string
		wantBytes int64
		wantDesc  string
	}{
		{machine: "epyc-2cpu", wantBytes: 32 << 20, wantDesc: "1 x L3, 32768 KiB in all"},
		{machine: "pi4", wantBytes: 1 << 20, wantDesc: "1 x L2, 1024 KiB in all"},
		{machine: "two-l3", wantBytes: 32 << 20, wantDesc: "2 x L3, 32768 KiB in all"},
		{machine: "no-shared-list", wantBytes: 1 << 20, wantDesc: "2 x L2, 1024 KiB in all"},
		{machine: "no-cache-info", wantBytes: 0},
		{machine: "does-not-exist", wantBytes: 0},
	}
	for _, tt := range tests {
		t.Run(tt.machine, func(t *testing.T) {
			got, desc, err := lastLevelCache(filepath.Join("testdata", "sysfs", tt.machine))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.wantBytes || desc != tt.wantDesc {
				t.Errorf("got %d %q, want %d %q", got, desc, tt.wantBytes, tt.wantDesc)
			}
		})
	}
}

func TestParseCacheSize(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		wantErr bool
	}{
		{in: "32K", want: 32 << 10},
		{in: "32768K", want: 32 << 20},
		{in: "2M", want: 2 << 20},
		{in: "1G", want: 1 << 30},
		{in: "4096", want: 4096},
		{in: "", wantErr: true},
		{in: "12KB", wantErr: true},
		{in: "-1K", wantErr: true},
	}
	for _, tt := range tests {
		got, err := parseCacheSize(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("parseCacheSize(%q) = %d, %v; want %d, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestMemAvailable(t *testing.T) {
	if hostinfo.MemInfoBytes("MemAvailable") <= 0 {
		t.Skip("no MemAvailable in /proc/meminfo: not Linux 3.14 or later")
	}
	if err := checkFits(1<<20, "size"); err != nil {
		t.Errorf("1 MiB does not fit: %v", err)
	}
	if err := checkFits(1<<62, "size"); err == nil {
		t.Error("4 EiB fits")
	}
}
