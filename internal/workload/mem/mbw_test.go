package mem

import (
	"context"
	"slices"
	"testing"

	"github.com/boxtax/boxtax/internal/errtest"
	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

func TestMBWParams(t *testing.T) {
	tests := []struct {
		name      string
		params    workload.Params
		wantWords int
		wantBlock int
		wantErr   string
	}{
		{name: "defaults", wantWords: 64 << 20 / 8, wantBlock: 256 << 10 / 8},
		{name: "numbers", params: workload.Params{"size": 4096, "block_size": 1024}, wantWords: 512, wantBlock: 128},
		{name: "size not words", params: workload.Params{"size": 1001}, wantErr: "size"},
		{name: "size zero", params: workload.Params{"size": 0}, wantErr: "size"},
		{name: "bad unit", params: workload.Params{"size": "64 parsecs"}, wantErr: "size"},
		{name: "block larger than size", params: workload.Params{"size": "1MiB", "block_size": "2MiB"}, wantErr: "block_size"},
		{name: "block not words", params: workload.Params{"block_size": 12}, wantErr: "block_size"},
		{name: "no iterations", params: workload.Params{"iterations": 0}, wantErr: "iterations"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := workload.Parse(workloadtest.Check(t, MBW.Info(), tt.params), &mbwConfig{})
			if errtest.Want(t, err, tt.wantErr) {
				return
			}
			if c.words != tt.wantWords || c.blockWords != tt.wantBlock {
				t.Errorf("got %+v; want %d words in blocks of %d", c, tt.wantWords, tt.wantBlock)
			}
		})
	}
}

func TestCopies(t *testing.T) {
	src := make([]int64, 1003)
	for i := range src {
		src[i] = int64(i) * 31
	}
	tests := []struct {
		name string
		copy func(dst, src []int64)
	}{
		{"dumb", copyDumb},
		{"blocks of 1", func(d, s []int64) { copyBlocks(d, s, 1) }},
		{"blocks of 100 and a remainder", func(d, s []int64) { copyBlocks(d, s, 100) }},
		{"one block", func(d, s []int64) { copyBlocks(d, s, len(s)) }},
	}
	for _, tt := range tests {
		dst := make([]int64, len(src))
		tt.copy(dst, src)
		if !slices.Equal(dst, src) {
			t.Errorf("%s: copy differs", tt.name)
		}
	}
}

func TestMBWRun(t *testing.T) {
	p, _ := workload.Check(MBW.Info(), workload.Params{"size": "1MiB", "block_size": "96KiB", "iterations": 2})
	r := workloadtest.Run(t, context.Background(), MBW, p, workload.Env{})
	for _, m := range []string{"memcpy_MiBps", "dumb_MiBps", "mcblock_MiBps"} {
		if v := r.Samples[m]; len(v) != 1 || !(v[0] > 0) {
			t.Errorf("%s: %v", m, v)
		}
	}
}
