package hostimage

import (
	"archive/tar"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"
)

const fsSticky = fs.ModeSticky

// epoch is the modification time of the entries that have none of their
// own (directories, symlinks, generated files), so that the same files give
// the same archive.
var epoch = time.Unix(0, 0)

// WriteTar writes the set as a tar archive for the root of an image: paths
// relative to / sorted, owner root, host files with their mode and
// modification time (to the second), everything else at time 0. Files are
// read from the host now; one that changed size since Build is an error.
func (s *Set) WriteTar(w io.Writer) error {
	tw := tar.NewWriter(w)
	for _, e := range s.Entries() {
		if err := writeEntry(tw, e); err != nil {
			return err
		}
	}
	return tw.Close()
}

func writeEntry(tw *tar.Writer, e *Entry) error {
	hdr := tar.Header{
		Name:    strings.TrimPrefix(e.Path, "/"),
		Mode:    tarMode(e.Mode),
		ModTime: epoch,
		Format:  tar.FormatPAX,
	}
	if e.Kind == File && !e.ModTime.IsZero() {
		// Whole seconds: PAX would otherwise record sub-second times,
		// which not every engine's import keeps.
		hdr.ModTime = e.ModTime.Truncate(time.Second)
	}
	switch e.Kind {
	case Dir:
		hdr.Typeflag, hdr.Name = tar.TypeDir, hdr.Name+"/"
		return tw.WriteHeader(&hdr)
	case Symlink:
		hdr.Typeflag, hdr.Linkname = tar.TypeSymlink, e.Target
		return tw.WriteHeader(&hdr)
	}
	hdr.Typeflag, hdr.Size = tar.TypeReg, e.Size
	if e.Source == "" {
		if err := tw.WriteHeader(&hdr); err != nil {
			return err
		}
		_, err := tw.Write(e.Data)
		return err
	}
	f, err := os.Open(e.Source)
	if err != nil {
		return fmt.Errorf("reading %s for the image: %w", e.Source, err)
	}
	defer f.Close()
	if err := tw.WriteHeader(&hdr); err != nil {
		return err
	}
	// At most the size the header says: a file that grew since it was
	// looked at (a log, or one of /proc whose size reads 0) is said to
	// have changed, not "archive/tar: write too long" (issue 42, 15).
	n, err := io.Copy(tw, io.LimitReader(f, e.Size))
	if err != nil {
		return fmt.Errorf("reading %s for the image: %w", e.Source, err)
	}
	var more [1]byte
	if m, _ := f.Read(more[:]); n != e.Size || m > 0 {
		now := fmt.Sprintf("%d", n)
		if m > 0 {
			now = "more"
		}
		return fmt.Errorf("%s changed while the image was made (%d bytes when looked at, %s when read): "+
			"try again, or copy it to a file that stays as it is and name the copy", e.Source, e.Size, now)
	}
	return nil
}

// tarMode turns a FileMode's permission and special bits into tar's.
func tarMode(m fs.FileMode) int64 {
	mode := int64(m.Perm())
	if m&fs.ModeSetuid != 0 {
		mode |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		mode |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		mode |= 0o1000
	}
	return mode
}

// Hash is the sha256 of the set's archive in hex: the same files (content,
// paths, modes, links) give the same hash.
func (s *Set) Hash() (string, error) {
	h := sha256.New()
	if err := s.WriteTar(h); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
