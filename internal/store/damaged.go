package store

import (
	"errors"
	"fmt"
)

// ErrDamaged marks a row that boxtax cannot have written: the database was
// changed behind it (by hand, another program, a bad disk). The error
// names the run, so the rest of the study can still be read.
var ErrDamaged = errors.New("damaged: the database was changed outside boxtax")

// checkChunk tells whether a stored series chunk is one boxtax can have
// written: a blob of n little-endian float64 values, n not negative.
func checkChunk(runID int64, name string, chunk, n int64, isBlob bool, dataBytes int64) error {
	if n < 0 || !isBlob || dataBytes%8 != 0 || dataBytes/8 != n || chunk < 0 {
		kind := "a blob"
		if !isBlob {
			kind = "not a blob"
		}
		return fmt.Errorf("run %d: series %q, chunk %d: %w (%d values declared, %d bytes of data, %s): "+
			"restore the file from a copy; its other studies can still be read", runID, name, chunk, ErrDamaged, n, dataBytes, kind)
	}
	return nil
}
