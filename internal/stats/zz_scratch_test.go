package stats

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"testing"
)

func TestScratchWorst(t *testing.T) {
	data, _ := os.ReadFile("testdata/expected.json")
	var e expectedFile
	json.Unmarshal(data, &e)
	type row struct {
		rel float64
		s   string
	}
	var rows []row
	for _, c := range e.Cases {
		s := make([][]float64, len(c.Samples))
		for i, n := range c.Samples {
			s[i] = e.Samples[n]
		}
		got := functionsUnderTest[c.Fn](c.Args, s)
		rows = append(rows, row{relativeError(got, c.Want), fmt.Sprintf("%s %v %v got %.17g want %.17g", c.Fn, c.Args, c.Samples, got, c.Want)})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].rel > rows[j].rel })
	for _, r := range rows[:25] {
		fmt.Printf("%.3g %s\n", r.rel, r.s)
	}
}
