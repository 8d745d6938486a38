package papers

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
)

// The transcriptions in papers/*.yaml are checked against the seed texts
// themselves: testdata/seeds/ID.txt holds the tables (and sentences) of
// paper ID verbatim, and every transcribed value must be the number printed
// at its place there: its row (by label, or by order of devices and
// configurations), its column (by position). Corrections with printed and
// reads are the only departures allowed.

// wordValues reads the numbers the papers state in words (RowSpec.Words).
var wordValues = map[string]string{
	"doubles":            "2",
	"doubles again":      "2",
	"more than double":   "2",
	"roughly double":     "2",
	"approximately half": "0.5",
}

// sourceTable is a table as printed: its rows, each split at the tabs.
type sourceTable [][]string

func readSource(t *testing.T, id string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "seeds", id+".txt"))
	if err != nil {
		t.Fatalf("no verbatim excerpt of %s's source: %v", id, err)
	}
	return strings.Split(string(b), "\n")
}

// findTable returns the rows of the table whose caption line begins with
// caption: after the caption and blank lines, a header line, then the rows
// up to the next blank line.
func findTable(lines []string, caption string) (sourceTable, bool) {
	for i, l := range lines {
		if !strings.HasPrefix(l, caption) {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		j++ // the header
		var rows sourceTable
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != ""; j++ {
			rows = append(rows, strings.Split(lines[j], "\t"))
		}
		return rows, true
	}
	return nil, false
}

// labelledRow returns the cells after the first cell equal to label.
func (s sourceTable) labelledRow(label string) ([]string, bool) {
	for _, row := range s {
		for i, c := range row {
			if strings.TrimSpace(c) == label {
				return row[i+1:], true
			}
		}
	}
	return nil, false
}

// sameCell says whether a transcribed cell is the printed one, directly or
// through a correction of its table.
func sameCell(p Paper, table, transcribed, printed string) bool {
	transcribed, printed = strings.TrimSpace(transcribed), strings.TrimSpace(printed)
	if transcribed == printed {
		return true
	}
	for _, c := range p.Corrections {
		if c.Table == table && c.Printed != "" && strings.TrimSpace(c.Printed) == printed && strings.TrimSpace(c.Reads) == transcribed {
			return true
		}
	}
	return false
}

func TestPapersMatchTheSeedTextsByPosition(t *testing.T) {
	ps, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		t.Run(p.ID, func(t *testing.T) {
			lines := readSource(t, p.ID)
			checked := 0
			for _, tab := range p.Tables {
				checked += checkTable(t, p, tab, lines)
			}
			if checked == 0 {
				t.Errorf("no value of %s was checked", p.ID)
			}
			t.Logf("%s: %d transcribed values match the seed text", p.ID, checked)
		})
	}
}

// checkTable compares every transcribed cell of tab with the source and
// returns how many it compared.
func checkTable(t *testing.T, p Paper, tab Table, lines []string) int {
	t.Helper()
	n := 0
	cmp := func(where string, transcribed []string, printed []string) {
		for i, c := range transcribed {
			got := ""
			if i < len(printed) {
				got = printed[i]
			}
			if !sameCell(p, tab.Table, c, got) {
				t.Errorf("table %s, %s, column %d (%s): transcribed %q, printed %q", tab.Table, where, i+1, tab.Columns[i].Name, c, got)
			}
			n++
		}
	}
	// A figure's numbers stated in the text: the table quotes its sentences;
	// every value, without its sign, is a percentage stated in them.
	if len(tab.Quotes) > 0 {
		text := strings.Join(lines, "\n")
		for _, q := range tab.Quotes {
			if !strings.Contains(strings.Join(strings.Fields(text), " "), q) {
				t.Errorf("table %s: quote %q is not in the source", tab.Table, q)
			}
		}
		quoted := strings.Join(tab.Quotes, " ")
		for dev, byRow := range tab.Values {
			for conf, row := range byRow {
				for i, c := range row {
					num := strings.TrimLeft(strings.TrimSpace(c), "+-")
					if !strings.Contains(quoted, num) {
						t.Errorf("table %s, %s %s column %d: %q is not in the quotes", tab.Table, dev, conf, i+1, c)
					}
					n++
				}
			}
		}
		return n
	}
	// Numbers stated in the text: each row quotes its sentence.
	if len(tab.Rows) > 0 && tab.Rows[0].Quote != "" {
		text := strings.Join(lines, "\n")
		for _, row := range tab.Rows {
			if row.Quote == "" || !strings.Contains(text, row.Quote) {
				t.Errorf("table %s, %s: quote %q is not in the source", tab.Table, row.Name, row.Quote)
				continue
			}
			for dev, byRow := range tab.Values {
				for i, c := range byRow[row.Name] {
					if strings.TrimSpace(c) == "" {
						continue
					}
					if row.Words != "" {
						if !strings.Contains(row.Quote, row.Words) || wordValues[row.Words] == "" || wordValues[row.Words] != strings.TrimSpace(c) {
							t.Errorf("table %s, %s, %s column %d: %q stated as %q: the words must be in the quote and read as %q", tab.Table, row.Name, dev, i+1, c, row.Words, wordValues[row.Words])
						}
					} else if !strings.Contains(row.Quote, c) {
						t.Errorf("table %s, %s, %s column %d: %q is not in the quote %q", tab.Table, row.Name, dev, i+1, c, row.Quote)
					}
					n++
				}
			}
		}
		return n
	}
	rows, problems := printedRows(p, tab, lines)
	for _, msg := range problems {
		t.Errorf("table %s: %s", tab.Table, msg)
	}
	for _, r := range rows {
		cmp(r.where, r.transcribed, r.printed)
	}
	return n
}

// printedRow is a transcribed row of a printed table beside the cells
// printed at its place in the source.
type printedRow struct {
	where       string // "RPi2 docker", the row as the test names it
	dev, row    string // the device's id and the row's (or configuration's) name
	transcribed []string
	printed     []string
}

// printedRows finds every transcribed row of a table printed in the source
// (tab.Caption) at its place there: its row by label, or by the order of
// devices and configurations; its cells are the last ones of the printed
// row. problems says what could not be found.
func printedRows(p Paper, tab Table, lines []string) (out []printedRow, problems []string) {
	src, ok := findTable(lines, tab.Caption)
	if tab.Caption == "" || !ok {
		return nil, []string{fmt.Sprintf("caption %q not found in the source", tab.Caption)}
	}
	switch {
	case tab.Transposed:
		for _, d := range p.Devices {
			byRow, ok := tab.Values[d.ID]
			if !ok {
				continue
			}
			printed, ok := src.labelledRow(d.Name)
			if !ok {
				problems = append(problems, fmt.Sprintf("no row for device %q in the source", d.Name))
				continue
			}
			out = append(out, printedRow{d.Name, d.ID, tab.Rows[0].Name, byRow[tab.Rows[0].Name], printed})
		}
	case len(tab.Rows) > 0:
		if len(src) != len(tab.Rows) {
			problems = append(problems, fmt.Sprintf("%d rows printed, %d transcribed", len(src), len(tab.Rows)))
		}
		for _, row := range tab.Rows {
			printed, ok := src.labelledRow(row.Name)
			if !ok {
				problems = append(problems, fmt.Sprintf("no row %q in the source", row.Name))
				continue
			}
			for _, d := range p.Devices {
				if cells, ok := tab.Values[d.ID][row.Name]; ok {
					out = append(out, printedRow{row.Name, d.ID, row.Name, cells, printed})
				}
			}
		}
	default:
		// Rows in order: each device's configurations, as the paper
		// prints them; the values are the last cells of each row.
		i := 0
		for _, d := range p.Devices {
			byConf, ok := tab.Values[d.ID]
			if !ok {
				continue
			}
			for _, conf := range p.Configurations {
				cells, ok := byConf[conf.Name]
				if !ok {
					continue
				}
				if i >= len(src) {
					return out, append(problems, fmt.Sprintf("the source has %d rows, the transcription more", len(src)))
				}
				row := src[i]
				i++
				if len(row) < len(cells) {
					problems = append(problems, fmt.Sprintf("row %d: %d printed cells for %d transcribed", i, len(row), len(cells)))
					continue
				}
				out = append(out, printedRow{d.Name + " " + conf.Name, d.ID, conf.Name, cells, row[len(row)-len(cells):]})
			}
		}
		if i != len(src) {
			problems = append(problems, fmt.Sprintf("%d rows transcribed, %d printed", i, len(src)))
		}
	}
	return out, problems
}

// TestSeedExcerptsAreVerbatim checks testdata/seeds/*.txt against the seed
// texts, which live beside the repository (shared/seeds, found by
// testenv.SeedsDir): every excerpt line must be a line of its seed. Without
// them it skips on a developer machine and fails in CI.
func TestSeedExcerptsAreVerbatim(t *testing.T) {
	dir := testenv.SeedsDir(t, "papers")
	ps, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		seed, err := os.ReadFile(filepath.Join(dir, filepath.Base(p.Source)))
		if err != nil {
			t.Errorf("%s: %v", p.ID, err)
			continue
		}
		have := map[string]bool{}
		sc := bufio.NewScanner(strings.NewReader(string(seed)))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			have[sc.Text()] = true
		}
		for i, l := range readSource(t, p.ID) {
			if strings.HasPrefix(l, "# ") || l == "" {
				continue
			}
			if !have[l] {
				t.Errorf("%s excerpt line %d is not a line of %s: %q", p.ID, i+1, p.Source, l)
			}
		}
	}
}
