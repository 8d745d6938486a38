package env

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// imageHoldPrefix names the files in which a running boxtax says which
// images it uses: os.TempDir()/boxtax-images-PID, its controller id
// (LabelController) on the first line, then an image id a line. `boxtax
// clean --images` leaves the images of a live controller alone, so that a
// study in progress never loses the image its next runs need.
const imageHoldPrefix = "boxtax-images-"

// imageHolds are the images this process holds, and the file that says so.
var imageHolds struct {
	sync.Mutex
	ids []string
}

// HoldImage records that this process uses the image id, before it starts
// a container of it. Without a controller id (no /proc) it records nothing.
func HoldImage(id string) error {
	if ThisController() == "" || id == "" {
		return nil
	}
	imageHolds.Lock()
	defer imageHolds.Unlock()
	if slices.Contains(imageHolds.ids, id) {
		return nil
	}
	ids := append(slices.Clone(imageHolds.ids), id)
	path := imageHoldPath(os.Getpid())
	tmp := path + ".new"
	text := ThisController() + "\n" + strings.Join(ids, "\n") + "\n"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		return fmt.Errorf("recording the images this study uses, so that boxtax clean leaves them (set TMPDIR to a writable place): %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	imageHolds.ids = ids
	return nil
}

// ReleaseImages says that this process no longer uses the images it held
// (its study ended): it removes its file. A later study holds them again
// as its containers start.
func ReleaseImages() {
	imageHolds.Lock()
	defer imageHolds.Unlock()
	imageHolds.ids = nil
	_ = os.Remove(imageHoldPath(os.Getpid()))
}

func imageHoldPath(pid int) string {
	return filepath.Join(os.TempDir(), imageHoldPrefix+strconv.Itoa(pid))
}

// HeldImages are the images running boxtax processes hold, by image id,
// with the pid of one that holds it. The files of processes that no
// longer run are removed.
func HeldImages() (map[string]int, error) {
	files, err := filepath.Glob(filepath.Join(os.TempDir(), imageHoldPrefix+"*"))
	if err != nil {
		return nil, err
	}
	held := map[string]int{}
	var errs []error
	for _, f := range files {
		pid, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(f), imageHoldPrefix))
		if err != nil {
			continue // a .new being written, or not ours
		}
		b, err := os.ReadFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			errs = append(errs, err)
			continue
		}
		lines := strings.Fields(string(b))
		if len(lines) == 0 || !ControllerAlive(lines[0]) {
			if !ProcessAlive(pid) || len(lines) > 0 {
				_ = os.Remove(f) // its process ended (or the pid is another's now)
			}
			continue
		}
		for _, id := range lines[1:] {
			held[id] = pid
		}
	}
	return held, errors.Join(errs...)
}
