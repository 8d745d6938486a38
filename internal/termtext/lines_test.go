package termtext

import (
	"errors"
	"slices"
	"testing"
)

func TestLinesHandsWholeLines(t *testing.T) {
	var got []string
	w := Lines(func(l string) error { got = append(got, l); return nil })
	for _, piece := range []string{"one\ntw", "o\r\n", "", "\nthree"} {
		if n, err := w.Write([]byte(piece)); n != len(piece) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", piece, n, err)
		}
	}
	if want := []string{"one", "two\r", ""}; !slices.Equal(got, want) {
		t.Errorf("lines %q, want %q (three waits for its end)", got, want)
	}
	failing := Lines(func(string) error { return errors.New("disk full") })
	if _, err := failing.Write([]byte("x\n")); err == nil || err.Error() != "disk full" {
		t.Errorf("error %v, want the line's", err)
	}
}
