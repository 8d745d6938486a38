package cli

import (
	"io"
	"os"
	"strconv"

	"golang.org/x/term"
)

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalWidth is the width of the terminal on stdout in columns: its
// size, else $COLUMNS, else 80 (a serial console often reports none).
func terminalWidth(g *Globals) int {
	if f, ok := g.Stdout.(*os.File); ok {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
	}
	if g.Getenv != nil {
		if w, err := strconv.Atoi(g.Getenv("COLUMNS")); err == nil && w > 0 {
			return w
		}
	}
	return 80
}
