package papers

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
)

// The sign of every published percentage is checked against the seed texts
// themselves (shared/seeds, testenv.SeedsDir), not against a second copy of
// the same readings: a value of a printed table carries the sign printed at
// its place in the seed; a value stated in the text goes the way the words
// next to it say ("an overhead of", "rise of", "decreased ... by"), read
// with the quantity's better direction (an overhead in a throughput is
// lower, in a latency higher). A value whose words state no direction must
// be transcribed sign: unstated, and one that is must state its direction.

// pctValue is one published percentage of a paper, read in boxtax's
// convention as compare reads it.
type pctValue struct {
	table    int // index in Paper.Tables
	dev, row string
	col      int
	cell     string
	sign     string  // the row's sign convention
	pct      float64 // in boxtax's convention; 0 for SignUnstated
}

// pctValues lists every published percentage of p.
func pctValues(p Paper) []pctValue {
	var out []pctValue
	for ti, tab := range p.Tables {
		specs := map[string]RowSpec{}
		for _, r := range tab.Rows {
			specs[r.Name] = r
		}
		for _, d := range p.Devices {
			for row, cells := range tab.Values[d.ID] {
				for ci, c := range cells {
					pub, err := parsePublished(c)
					if err != nil || !pub.pct || pub.blank {
						continue
					}
					sign := tab.signOf(specs[row])
					v, _ := signedPct(pub.value, sign)
					out = append(out, pctValue{table: ti, dev: d.ID, row: row, col: ci, cell: c, sign: sign, pct: v})
				}
			}
		}
	}
	return out
}

// Directions a percentage can go, as the seed text says.
const (
	dirUp   = "up"
	dirDown = "down"
	dirNone = "none"
)

// Words that say which way a stated percentage goes: directly (up, down),
// or as better or worse, which way depends on the quantity.
var (
	wordsUp     = words("increase increased increases increasing rise rises higher more grows")
	wordsDown   = words("decrease decreased decreases decreasing lower less smaller loss lost drop reduces reduced reduction")
	wordsWorse  = words("overhead overheads degradation degrade worse penalty")
	wordsBetter = words("gain better improvement improvements improves")
	wordRe      = regexp.MustCompile(`[a-z]+`)
)

func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(s) {
		out[w] = true
	}
	return out
}

// seedText is a seed paper with its whitespace collapsed, as quotes are
// compared.
type seedText struct {
	lines []string
	flat  string
}

func readSeed(t *testing.T, dir string, p Paper) seedText {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.Base(p.Source)))
	if err != nil {
		t.Fatalf("%s: %v (the seed texts are in %s)", p.ID, err, dir)
	}
	return seedText{lines: strings.Split(string(b), "\n"), flat: strings.Join(strings.Fields(string(b)), " ")}
}

// statedDirection is which way the seed's words next to a stated number
// go, and the word that says so: the first direction word among the two
// words after the number, else the nearest among the 45 before it (a footnote may fall between).
func statedDirection(seed seedText, quotes []string, num string) (dir, word string, err error) {
	pos := -1
	for _, q := range quotes {
		q = strings.Join(strings.Fields(q), " ")
		qi := strings.Index(seed.flat, q)
		if qi < 0 {
			continue
		}
		if ni := strings.Index(q, num); ni >= 0 {
			pos = qi + ni
			break
		}
	}
	if pos < 0 {
		return "", "", fmt.Errorf("%s is in no quote found in the seed text", num)
	}
	classify := func(w string) string {
		switch {
		case wordsUp[w]:
			return dirUp
		case wordsDown[w]:
			return dirDown
		case wordsWorse[w]:
			return "worse"
		case wordsBetter[w]:
			return "better"
		}
		return ""
	}
	after := wordRe.FindAllString(strings.ToLower(seed.flat[pos+len(num):min(len(seed.flat), pos+len(num)+80)]), 2)
	for _, w := range after {
		if d := classify(w); d != "" {
			return d, w, nil
		}
	}
	before := wordRe.FindAllString(strings.ToLower(seed.flat[max(0, pos-600):pos]), -1)
	for i := len(before) - 1; i >= 0 && i >= len(before)-45; i-- {
		if d := classify(before[i]); d != "" {
			return d, before[i], nil
		}
	}
	return dirNone, "", nil
}

// higherIsBetter says which way a quantity is better: the mapped metric's,
// else what its names say (a throughput higher, a time, latency, power,
// temperature or EDP lower).
func higherIsBetter(tab Table, col Column, row RowSpec) (bool, bool) {
	m := col.Boxtax
	if row.Boxtax != nil {
		m = row.Boxtax
	}
	if m != nil {
		if wl, err := workload.Lookup(m.Workload); err == nil {
			if met, ok := wl.Info().Metric(m.Metric); ok {
				return met.HigherIsBetter, true
			}
		}
		if _, ok := runMetric(m.Metric); ok {
			return false, true // energy, power, EDP
		}
	}
	// The row's and column's own names first, then the table's title.
	for _, name := range []string{row.Name + " " + row.Unit, col.Name + " " + col.Unit, tab.Title} {
		name = strings.ToLower(name)
		for _, w := range []string{"edp", "latency", "time", "power", "temperature", "load average"} {
			if strings.Contains(name, w) {
				return false, true
			}
		}
		for _, w := range []string{"throughput", "tcp", "bandwidth", "requests", "messages", "write", "mbw", "memory"} {
			if strings.Contains(name, w) {
				return true, true
			}
		}
	}
	return false, false
}

// signProblems checks the direction of every value in vals against the
// seed text and says where one departs from it.
func signProblems(p Paper, seed seedText, vals []pctValue) (problems []string, evidence []string) {
	printed := map[string]string{} // dev/row/col -> the cell printed at its place
	for _, tab := range p.Tables {
		if tab.Caption == "" {
			continue
		}
		rows, _ := printedRows(p, tab, seed.lines)
		for _, r := range rows {
			for i := range r.transcribed {
				if i < len(r.printed) {
					printed[fmt.Sprintf("%s/%s/%s/%d", tab.Table, r.dev, r.row, i)] = r.printed[i]
				}
			}
		}
	}
	for _, v := range vals {
		tab := p.Tables[v.table]
		where := fmt.Sprintf("%s %s, %s, %s, %s (%q, sign %s)", p.ID, tab.label(), tab.Columns[v.col].Name, v.row, v.dev, v.cell, v.sign)
		want := ""
		if tab.Caption != "" {
			cell, ok := printed[fmt.Sprintf("%s/%s/%s/%d", tab.Table, v.dev, v.row, v.col)]
			if !ok {
				problems = append(problems, where+": not found at its place in the seed's table")
				continue
			}
			pub, err := parsePublished(cell)
			switch c := strings.TrimSpace(cell); {
			case err != nil:
				problems = append(problems, fmt.Sprintf("%s: the seed prints %q there", where, cell))
				continue
			case pub.value == 0:
				continue // 0 % goes neither way
			case strings.HasPrefix(c, "-"):
				want = dirDown
			case strings.HasPrefix(c, "+"):
				want = dirUp
			default:
				problems = append(problems, fmt.Sprintf("%s: the seed prints %q, a percentage without a sign, in a table", where, cell))
				continue
			}
			evidence = append(evidence, fmt.Sprintf("%s: printed %q", where, cell))
		} else {
			spec := RowSpec{Name: v.row}
			for _, r := range tab.Rows {
				if r.Name == v.row {
					spec = r
				}
			}
			quotes := tab.Quotes
			if spec.Quote != "" {
				quotes = []string{spec.Quote}
			}
			num := strings.TrimLeft(strings.TrimSpace(v.cell), "+-")
			dir, word, err := statedDirection(seed, quotes, num)
			if err != nil {
				problems = append(problems, where+": "+err.Error())
				continue
			}
			if dir == "worse" || dir == "better" {
				hib, ok := higherIsBetter(tab, tab.Columns[v.col], spec)
				if !ok {
					problems = append(problems, fmt.Sprintf("%s: the text says %q, and which way is better for this quantity is unknown: map it to a metric", where, word))
					continue
				}
				if (dir == "better") == hib {
					dir = dirUp
				} else {
					dir = dirDown
				}
			}
			want = dir
			evidence = append(evidence, fmt.Sprintf("%s: %q -> %s", where, word, dir))
		}
		got := dirNone
		switch {
		case v.sign == SignUnstated:
		case v.pct > 0:
			got = dirUp
		case v.pct < 0:
			got = dirDown
		}
		if got != want {
			problems = append(problems, fmt.Sprintf("%s: transcribed as going %s, the seed text says %s", where, got, want))
		}
	}
	return problems, evidence
}

// TestPublishedSignsFollowTheSeedTexts: every published percentage goes
// the way the seed text says (issue 41: Marques' -23.9 % and -32.5 %
// flipped to + passed every test, which stripped the signs).
func TestPublishedSignsFollowTheSeedTexts(t *testing.T) {
	dir := testenv.SeedsDir(t, "papers")
	ps, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		t.Run(p.ID, func(t *testing.T) {
			vals := pctValues(p)
			problems, evidence := signProblems(p, readSeed(t, dir, p), vals)
			for _, msg := range problems {
				t.Error(msg)
			}
			for _, e := range evidence {
				t.Log(e)
			}
			t.Logf("%s: %d published percentages checked against the seed text", p.ID, len(vals))
		})
	}
}

// TestSignCheckFailsOnEveryFlippedValue flips each published percentage in
// turn (in memory: the value negated; a magnitude without a direction given
// one) and requires the check against the seed texts to fail each time.
func TestSignCheckFailsOnEveryFlippedValue(t *testing.T) {
	dir := testenv.SeedsDir(t, "papers")
	ps, err := All()
	if err != nil {
		t.Fatal(err)
	}
	flipped := map[string]int{}
	for _, p := range ps {
		seed := readSeed(t, dir, p)
		vals := pctValues(p)
		for i := range vals {
			mutated := append([]pctValue(nil), vals...)
			v := &mutated[i]
			if v.sign == SignUnstated {
				v.sign, v.pct = SignLower, -1 // given a direction it does not state
			} else if v.pct == 0 {
				continue
			} else {
				v.pct = -v.pct
			}
			if problems, _ := signProblems(p, seed, mutated); len(problems) == 0 {
				t.Errorf("%s: flipping %s %s/%s column %d (%q) to %+g passes the sign check", p.ID, p.Tables[v.table].label(), v.dev, v.row, v.col+1, v.cell, v.pct)
			}
			flipped[p.ID]++
		}
	}
	for _, id := range []string{"krylovskiy2015", "morabito2017", "marques"} {
		if flipped[id] == 0 {
			t.Errorf("%s: no published percentage was flipped", id)
		}
	}
	t.Logf("flipped values, each caught: %v", flipped)
}
