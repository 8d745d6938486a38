package study

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
)

// TestLoadRefusesWhatIsNotAStudy: issue 25 item 10, `boxtax run /dev/zero`
// grew by 250 MB/s and a FIFO nobody writes hung: a study file is read up
// to a bound the error states, and only while the context lasts.
func TestLoadRefusesWhatIsNotAStudy(t *testing.T) {
	for _, dev := range []string{"/dev/zero", "/dev/urandom"} {
		t.Run(dev, func(t *testing.T) {
			start := time.Now()
			_, err := Load(t.Context(), dev)
			if err == nil || !strings.Contains(err.Error(), "larger than 4 MiB") || !strings.Contains(err.Error(), dev) {
				t.Errorf("error %v, want one saying %s is larger than 4 MiB", err, dev)
			}
			if took := time.Since(start); took > 30*time.Second { // reading on would never end
				t.Errorf("took %v", took)
			}
		})
	}
	t.Run("a FIFO nobody writes", func(t *testing.T) {
		fifo := filepath.Join(t.TempDir(), "study.yaml")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		defer cancel()
		done := make(chan error, 1)
		go func() { _, err := Load(ctx, fifo); done <- err }()
		if err := testenv.Receive(t, done, 10*time.Second, "reading a FIFO has not stopped with its context"); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("error %v, want the context's", err)
		}
	})
	t.Run("a study just under the bound", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "big.yaml")
		head := "name: big\nenvs: [native]\nworkloads: [cpu.prime]\n"
		pad := "# " + strings.Repeat("x", 1000) + "\n"
		// Repeat, not += in a loop: copying the growing text 4,000 times
		// (8 GB) took this subtest 244 s on a busy machine.
		body := head + strings.Repeat(pad, (MaxStudyBytes-len(head))/len(pad))
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if s, err := Load(t.Context(), path); err != nil || s.Name != "big" {
			t.Errorf("%v, %v", s, err)
		}
	})
}
