package analysis

import (
	"bytes"
	"testing"
)

// FuzzReadCSV: any input is read or refused without a panic (issue 15:
// fuzzing). Seed corpus: testdata/fuzz/FuzzReadCSV and the cases below.
func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("a,b,y\nx,p,1\nx,q,2\nz,p,3\nz,q,4.5\n"))
	f.Add([]byte("a,b,y\n\"x,1\",p,NA\nz,q,\n"))
	f.Add([]byte("a,b,y\r\nx,p,1e300\r\nz,q,-1e300\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, _, err := ReadCSV(bytes.NewReader(data), CSVOptions{Name: "fuzz.csv", Responses: []string{"y"}, Factors: []string{"a", "b"}})
		if err == nil && rows == nil {
			t.Fatal("no error and no data set")
		}
	})
}
