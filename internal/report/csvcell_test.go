package report

import (
	"bytes"
	"testing"
)

// TestCSVCellsCannotBeFormulas: issue 15 item 15, tidy CSV cells starting
// with =, +, - or @ were written raw (spreadsheet formula injection).
func TestCSVCellsCannotBeFormulas(t *testing.T) {
	tests := []struct{ in, want string }{
		{`=HYPERLINK("http://x","y")`, `'=HYPERLINK("http://x","y")`},
		{"+cmd", "'+cmd"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tx", "'\tx"},
		{"-1.5", "-1.5"},
		{"+3", "+3"},
		{"1e-9", "1e-9"},
		{"-0.001", "-0.001"},
		{"docker-bridge", "docker-bridge"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := inertCell(tt.in); got != tt.want {
			t.Errorf("inertCell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	var buf bytes.Buffer
	cw := NewCSVWriter(&buf)
	cw.Write([]string{"=1+1", "-3.5", "cpu.prime"})
	cw.Flush()
	if got, want := buf.String(), "'=1+1,-3.5,cpu.prime\n"; got != want {
		t.Errorf("row %q, want %q", got, want)
	}
}
