package npb

import (
	"context"
	"testing"
)

func TestKernelsVerifySmallClasses(t *testing.T) {
	tests := []struct {
		kernel string
		class  string
	}{
		{"ep", "S"}, {"is", "S"}, {"is", "W"}, {"cg", "S"}, {"cg", "W"},
	}
	for _, tt := range tests {
		t.Run(tt.kernel+"."+tt.class, func(t *testing.T) {
			k := kernels()[tt.kernel]
			r, err := k.run(context.Background(), tt.class, 2)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s %s: %.3f s, %.1f Mop/s, %s", tt.kernel, tt.class, r.seconds, r.mops, r.verify)
		})
	}
}
