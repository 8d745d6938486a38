package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/boxtax/boxtax/internal/study"
)

// runError maps what stopped study.Run to an exit code and says how to go
// on: a refused study is a usage error; a command that failed its check
// run (study.CheckError) a failed run; an interrupted one, a lost
// environment and a full disk keep what was stored and say how to resume
// it. st is the study as far as it got (nil when none was stored).
func runError(db string, st *study.Stored, err error) error {
	var refused *study.RefusedError
	if errors.As(err, &refused) {
		return usageError{refused.Err}
	}
	var check *study.CheckError
	if errors.As(err, &check) { // the command failed its check run: nothing stored
		return exitError{ExitRunsFailed, err}
	}
	if st == nil {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return exitError{ExitInterrupted, fmt.Errorf("interrupted: the finished runs of study %d are kept in %s; finish it with: boxtax run --resume --db %s", st.ID, db, db)}
	}
	var lost *study.EnvironmentLostError
	if errors.As(err, &lost) {
		return exitError{ExitError, fmt.Errorf("%w\nthe finished runs of study %d are kept in %s, and run %d is left to do; "+
			"once %s answers again, remove what it left and finish the study: boxtax clean && boxtax run --resume --db %s",
			lost, st.ID, db, lost.Run.Seq, lost.Env, db)}
	}
	if isDiskFull(err) {
		return exitError{ExitError, fmt.Errorf("disk full: a finished run could not be stored in %s (no space left on the filesystem of %s): %v\n"+
			"every run stored before is kept; free some space, then finish the study: boxtax run --resume --db %s",
			db, filepath.Dir(absPath(db)), err, db)}
	}
	return err
}

// isDiskFull tells SQLite's and the file system's "no space left" errors.
func isDiskFull(err error) bool {
	return err != nil && (errors.Is(err, syscall.ENOSPC) || strings.Contains(err.Error(), "database or disk is full") ||
		strings.Contains(err.Error(), "no space left on device"))
}

// absPath is path made absolute, or path when that fails.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}
