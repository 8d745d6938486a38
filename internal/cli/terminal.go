package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/boxtax/boxtax/internal/termtext"
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

// warn prints a warning line on stderr. Its text often quotes another
// program (an engine's error, a tool's output): control characters in it
// are shown, not obeyed (termtext).
func warn(g *Globals, format string, args ...any) {
	fmt.Fprintf(g.Stderr, "warning: %s\n", termtext.Visible(fmt.Sprintf(format, args...)))
}
