package analysis

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// csvRows reads a CSV file line by line: the header's column names, then
// each row's fields and the numbers of the columns asked for. ReadCSV and
// ScanCSV share it, so the bare parse that bench/analyze-14m.sh times is
// the analysis's own reader.
type csvRows struct {
	br     *bufio.Reader
	names  []string
	fields [][]byte // the current row's, valid until the next call of next
	lineNo int      // the current row's line number, from 1 for the header
	bad    int      // the column whose value did not parse (valueError)
}

// newCSVRows reads the header line.
func newCSVRows(r io.Reader) (*csvRows, error) {
	c := &csvRows{br: bufio.NewReaderSize(r, 1<<20), lineNo: 1}
	line, err := readLine(c.br)
	if err != nil {
		return nil, fmt.Errorf("reading the header line: %w", err)
	}
	header, err := splitFields(line, nil)
	if err != nil {
		return nil, fmt.Errorf("header line: %w", err)
	}
	c.names = make([]string, len(header))
	for i, h := range header {
		c.names[i] = strings.TrimSpace(string(h))
	}
	return c, nil
}

// column returns the index of the named column.
func (c *csvRows) column(name string) (int, error) {
	i := slices.Index(c.names, name)
	if i < 0 {
		return 0, fmt.Errorf("no column %q; the columns are: %s", name, strings.Join(c.names, ", "))
	}
	return i, nil
}

// columns returns the indexes of the named columns.
func (c *csvRows) columns(names []string) ([]int, error) {
	out := make([]int, len(names))
	for i, n := range names {
		var err error
		if out[i], err = c.column(n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// next reads the next row that is not empty into c.fields; false at the
// end of the file.
func (c *csvRows) next() (bool, error) {
	for {
		line, err := readLine(c.br)
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		c.lineNo++
		if len(line) == 0 {
			continue
		}
		if c.fields, err = splitFields(line, c.fields); err != nil {
			return false, fmt.Errorf("line %d: %w", c.lineNo, err)
		}
		if len(c.fields) != len(c.names) {
			return false, fmt.Errorf("line %d has %d fields, the header %d", c.lineNo, len(c.fields), len(c.names))
		}
		return true, nil
	}
}

// values parses the current row's numbers of the columns cols into y.
func (c *csvRows) values(cols []int, y []float64) error {
	for i, col := range cols {
		var err error
		if y[i], err = parseValue(c.fields[col]); err != nil {
			c.bad = i
			return err
		}
	}
	return nil
}

// valueError names the line and the response of a value that values
// refused.
func (c *csvRows) valueError(err error, responses []string) error {
	return fmt.Errorf("line %d, column %s: %w", c.lineNo, responses[c.bad], err)
}

// ScanCSV reads every row of a CSV as ReadCSV does (lines, fields, the
// responses' numbers) and keeps nothing: the bare parse that the
// analysis's time is measured against (bench/analyze-14m.sh). It returns
// the number of rows.
func ScanCSV(r io.Reader, responses []string) (int, error) {
	in, err := newCSVRows(r)
	if err != nil {
		return 0, err
	}
	cols, err := in.columns(responses)
	if err != nil {
		return 0, err
	}
	y := make([]float64, len(cols))
	rows := 0
	for {
		ok, err := in.next()
		if err != nil || !ok {
			return rows, err
		}
		if err := in.values(cols, y); err != nil {
			return rows, in.valueError(err, responses)
		}
		rows++
	}
}

// parseValue reads a number; NA, NaN and empty fields are missing.
func parseValue(b []byte) (float64, error) {
	b = bytes.TrimSpace(b)
	switch string(b) {
	case "", "NA", "NaN", "nan", "null":
		return math.NaN(), nil
	}
	if v, ok := parseInteger(b); ok {
		return v, nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", b)
	}
	return v, nil
}

// parseInteger reads a decimal integer of at most 15 digits, optionally
// signed, the form most measured values (ns, counts) take: exact, since it
// is below 2^53, and as strconv.ParseFloat reads it (-0 included), without
// its general path. Any other text is left to strconv.
func parseInteger(b []byte) (float64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	v := float64(n)
	if neg {
		v = -v
	}
	return v, true
}

// MaxCSVLine bounds one line of an analysed CSV file, so that a file
// without line breaks (/dev/zero) is refused instead of read into memory.
const MaxCSVLine = 16 << 20

// readLine returns the next line without its line ending.
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		long := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			if len(long) > MaxCSVLine {
				return nil, fmt.Errorf("a line longer than %d MiB: is it a CSV file?", MaxCSVLine>>20)
			}
			line, err = br.ReadSlice('\n')
			long = append(long, line...)
		}
		line = long
	}
	if err == io.EOF && len(line) > 0 {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	line = bytes.TrimSuffix(line, []byte{'\n'})
	return bytes.TrimSuffix(line, []byte{'\r'}), nil
}

// splitFields splits a CSV line into fields, reusing fields' storage. A
// field in double quotes may hold commas, and "" stands for one quote.
func splitFields(line []byte, fields [][]byte) ([][]byte, error) {
	fields = fields[:0]
	for {
		if len(line) > 0 && line[0] == '"' {
			j, escaped := 1, false
			for ; j < len(line); j++ {
				if line[j] != '"' {
					continue
				}
				if j+1 < len(line) && line[j+1] == '"' {
					escaped = true
					j++
					continue
				}
				break
			}
			if j >= len(line) {
				return nil, errors.New("a quoted field does not end")
			}
			f := line[1:j]
			if escaped {
				f = bytes.ReplaceAll(f, []byte(`""`), []byte(`"`))
			}
			fields = append(fields, f)
			rest := line[j+1:]
			if len(rest) == 0 {
				return fields, nil
			}
			if rest[0] != ',' {
				return nil, errors.New("text after a closing quote")
			}
			line = rest[1:]
			continue
		}
		i := bytes.IndexByte(line, ',')
		if i < 0 {
			return append(fields, line), nil
		}
		fields = append(fields, line[:i])
		line = line[i+1:]
	}
}
