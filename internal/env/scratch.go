package env

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// scratchDirPrefix names a native worker's scratch directories:
// os.TempDir()/boxtax-scratch-PID-RANDOM. The worker removes its own as it
// ends; one killed outright (with its controller) leaves it, and `boxtax
// clean` removes those of processes that no longer run.
const scratchDirPrefix = "boxtax-scratch-"

// MakeScratchDir makes a scratch directory for this process, named so that
// `boxtax clean` finds it should the process be killed.
func MakeScratchDir() (string, error) {
	return os.MkdirTemp("", scratchDirPrefix+strconv.Itoa(os.Getpid())+"-")
}

// RemoveScratchLeftovers removes the scratch directories of processes that
// no longer run, and says which.
func RemoveScratchLeftovers() ([]string, error) { return RemoveDeadDirs(scratchDirPrefix) }

// RemoveDeadDirs removes the directories os.TempDir()/prefix+PID-... of
// processes that no longer run (scratch, storage=bind), and returns their
// paths.
func RemoveDeadDirs(prefix string) ([]string, error) {
	dirs, err := filepath.Glob(filepath.Join(os.TempDir(), prefix+"*"))
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, d := range dirs {
		pidText, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(d), prefix), "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || ProcessAlive(pid) {
			continue
		}
		if err := os.RemoveAll(d); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, d)
	}
	return removed, errors.Join(errs...)
}

// ScratchLine says which scratch directories clean removed, "" for none.
func ScratchLine(dirs []string) string {
	if len(dirs) == 0 {
		return ""
	}
	return fmt.Sprintf("removed %d scratch director(ies) of boxtax workers that no longer run: %s", len(dirs), strings.Join(dirs, " "))
}
