package study

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/hostinfo"
)

func TestTooManyInstancesForMemoryAreRefused(t *testing.T) {
	if hostinfo.MemInfoBytes("MemAvailable") == 0 {
		t.Skip("no /proc/meminfo here")
	}
	yaml := "name: m\nenvs: [native]\nworkloads:\n  - name: test.mem\n    params: {size: 1TiB}\nfactors:\n  - name: instances\n    levels: [1, 4]\n"
	s, err := ParseSpec("m.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	err = s.Normalize(testEnvs).Validate(testEnvs)
	if err == nil || !strings.Contains(err.Error(), "instance(s) would need") || !strings.Contains(err.Error(), "GiB is available") {
		t.Fatalf("error %v", err)
	}
}
