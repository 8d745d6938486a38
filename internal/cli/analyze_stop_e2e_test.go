package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
)

// crossedCSV writes a CSV in which factor a has levelsA levels, b has
// levelsB, every combination observed twice.
func crossedCSV(t *testing.T, levelsA, levelsB int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("a,b,y\n")
	for i := range levelsA {
		for j := range levelsB {
			for rep := range 2 {
				fmt.Fprintf(&b, "a%d,b%d,%d\n", i, j, i%7+j%5+rep)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "crossed.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAnalyzeRefusesAModelTooLarge: issue 25 item 11, two factors of 400
// levels with their interaction grew past 600 MB; the model is refused at
// once, saying its size.
func TestAnalyzeRefusesAModelTooLarge(t *testing.T) {
	testenv.SkipSlowComputation(t, "a CSV of 160,000 cells read (35 s in the stripped run at load 28)")
	csv := crossedCSV(t, 400, 400)
	start := time.Now()
	res := runIn(t, t.TempDir(), "analyze", "--csv", csv, "--responses", "y", "--model", "a*b")
	if res.code != ExitUsage {
		t.Fatalf("exit %d, want %d\n%s", res.code, ExitUsage, res.stderr)
	}
	stderrSays(t, res, "GiB", "the term a:b alone has 159201 columns")
	// The refusal comes before the model is built (its memory is
	// analysis.TestReadCSVMemoryFollowsTheRows's); the minute catches a
	// refusal that builds it first (5 min under load before), not speed.
	if took := time.Since(start); took > time.Minute {
		t.Errorf("refused after %v", took)
	}
}

// TestAnalyzeStopsOnCtrlC: a fit within the bound that takes minutes ends
// at the first SIGINT, with 130.
func TestAnalyzeStopsOnCtrlC(t *testing.T) {
	csv := crossedCSV(t, 1500, 3)
	cmd, stderr, waited := startBoxtax(t, "analyze", "--csv", csv, "--responses", "y", "--factors", "a,b", "--unit", "slice")
	interruptWithin(t, cmd, stderr, waited, 1500*time.Millisecond, 30*time.Second, "analyze") // into the fit (minutes to its end)
}

// TestAnalyzeStopsReadingOnCtrlC: a CSV that keeps coming (here a FIFO
// fed a row every 10 ms; a file of gigabytes alike) is read until Ctrl-C,
// not to its end.
func TestAnalyzeStopsReadingOnCtrlC(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "rows.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd, stderr, waited := startBoxtax(t, "analyze", "--csv", fifo, "--responses", "y", "--factors", "a")
	fed := make(chan struct{})
	go func() {
		defer close(fed)
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		fmt.Fprintln(w, "a,y")
		for i := 0; i < 1500; i++ { // 15 s
			if _, err := fmt.Fprintf(w, "a%d,%d\n", i%2, i); err != nil {
				return // the reader is gone
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	interruptWithin(t, cmd, stderr, waited, time.Second, 10*time.Second, "analyze's reading") // into the rows (14 s more of them)
	<-fed
}
