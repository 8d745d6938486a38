package analysis

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/termtext"
)

// WriteText prints the results as the thesis's tables, in the terminal.
func WriteText(w io.Writer, results []*Result) error {
	var b strings.Builder
	for i, r := range results {
		if i > 0 {
			b.WriteString("\n")
		}
		r.text(&b)
	}
	// Factor and response names come from the user's CSV headers and
	// stored studies: their control characters are shown, not obeyed.
	_, err := io.WriteString(w, termtext.Visible(b.String()))
	return err
}

func (r *Result) text(b *strings.Builder) {
	what := fmt.Sprintf("%s %ss", count(r.N), r.Observation)
	if r.Unit == PerRun {
		what = fmt.Sprintf("%s runs, one mean per run (the unit of replication)", count(r.N))
	} else if r.Runs > 0 {
		what += fmt.Sprintf(" of %d runs", r.Runs)
	}
	fmt.Fprintf(b, "== %s, per %s: %s\n   model: %s\n", r.Workload, r.Observation, what, r.Model)
	for _, n := range r.Notes {
		fmt.Fprintf(b, "   note: %s\n", n)
	}

	fmt.Fprintf(b, "\nDescriptive statistics by scenario: mean (std)%s   [Table 5.1]\n", r.unitSuffix())
	t := &table{}
	t.row(append(append(append([]string{}, r.Shown...), "N"), r.Responses...)...)
	for _, s := range r.Scenarios {
		cells := append(append([]string{}, s.Levels...), count(s.N))
		for _, d := range s.Stats {
			cells = append(cells, meanStd(d))
		}
		t.row(cells...)
	}
	if len(r.Scenarios) > 1 {
		cells := []string{"all"}
		for range len(r.Shown) - 1 {
			cells = append(cells, "")
		}
		cells = append(cells, count(r.N))
		for _, d := range r.Overall {
			cells = append(cells, meanStd(d))
		}
		t.row(cells...)
	}
	t.write(b, len(r.Shown))

	if d := r.Deadlines; d != nil {
		fmt.Fprintf(b, "\nTime slices by scenario, means over runs   [Figs. 5.3-5.4]\n")
		t := &table{}
		head := append(append([]string{}, r.Shown...), "runs")
		for _, m := range d.Metrics {
			head = append(head, metricLabel(m))
		}
		t.row(head...)
		for _, row := range d.Rows {
			cells := append(append([]string{}, row.Levels...), strconv.Itoa(row.Runs))
			for _, v := range row.Means {
				cells = append(cells, num(v))
			}
			t.row(cells...)
		}
		t.write(b, len(r.Shown))
	}

	if r.Manova != nil {
		fmt.Fprintf(b, "\nMANOVA of %s, sequential sums of squares   [Tables 5.2-5.3]\n", strings.Join(r.Responses, ", "))
		fmt.Fprintf(b, "eta2: multivariate partial eta squared of each test\n")
		for _, test := range stats.MultivariateTests {
			t := &table{}
			t.row("", "Df", test, "approx F", "num Df", "den Df", "Pr(>F)", "eta2")
			for _, row := range r.Manova[test] {
				t.row(row.Term, num(row.DF), statNum(row.Stat), num(row.ApproxF), num(row.NumDF), num(row.DenDF), pValue(row.P), statNum(row.PartialEtaSq))
			}
			t.row("Residuals", num(r.ResidualDF))
			t.write(b, 1)
			b.WriteString("\n")
		}
	} else {
		b.WriteString("\n")
	}

	for _, resp := range r.Responses {
		fmt.Fprintf(b, "ANOVA of %s%s   [Tables 5.6-5.8]\n", resp, r.unitOf(resp))
		t := &table{}
		t.row("", "Df", "Sum Sq", "Mean Sq", "F value", "Pr(>F)", "eta2", "partial eta2")
		for _, row := range r.Anova[resp] {
			if row.Term == "Residuals" {
				t.row(row.Term, num(row.DF), sci(row.SumSq), sci(row.MeanSq))
				continue
			}
			t.row(row.Term, num(row.DF), sci(row.SumSq), sci(row.MeanSq), num(row.F), pValue(row.P), statNum(row.EtaSq), statNum(row.PartialEtaSq))
		}
		t.write(b, 1)
		b.WriteString("\n")
	}

	fmt.Fprintf(b, "Coefficients%s; in parentheses, as a share of the intercept   [Tables 5.4, 5.9]\n", r.unitSuffix())
	t = &table{}
	t.row(append([]string{""}, r.Responses...)...)
	first := r.Coefficients[r.Responses[0]]
	for j, c := range first {
		cells := []string{c.Name}
		for _, resp := range r.Responses {
			co := r.Coefficients[resp][j]
			intercept := r.Coefficients[resp][0].Estimate
			switch {
			case math.IsNaN(co.Estimate):
				cells = append(cells, "NA (aliased)")
			case j == 0:
				cells = append(cells, num(co.Estimate))
			default:
				cells = append(cells, fmt.Sprintf("%s (%s)%s", num(co.Estimate), ratio(co.Estimate/intercept), stars(co.P)))
			}
		}
		t.row(cells...)
	}
	t.write(b, 1)
	b.WriteString("significance of each coefficient (t test): *** p < 0.001, ** p < 0.01, * p < 0.05\n")
}

// unitSuffix names the responses' common unit, e.g. ", ns".
func (r *Result) unitSuffix() string {
	u := ""
	for _, resp := range r.Responses {
		if r.Units[resp] != "" && u == "" {
			u = r.Units[resp]
		}
		if r.Units[resp] != u {
			return ""
		}
	}
	if u == "" {
		return ""
	}
	return ", " + u
}

func (r *Result) unitOf(resp string) string {
	if u := r.Units[resp]; u != "" {
		return " (" + u + ")"
	}
	return ""
}

var metricLabels = map[string]string{
	"slice_used_pct": "slice used %", "violations_pct": "overruns %",
	"latency_p50_us": "wake p50 us", "latency_p99_us": "wake p99 us", "latency_max_us": "wake max us",
}

func metricLabel(m string) string {
	if l, ok := metricLabels[m]; ok {
		return l
	}
	return m
}

// table is a text table: first columns left-aligned, the rest right.
type table struct{ rows [][]string }

func (t *table) row(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(b *strings.Builder, left int) {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, r := range t.rows {
		var line strings.Builder
		for i, c := range r {
			if i > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-len([]rune(c)))
			if i < left {
				line.WriteString(c + pad)
			} else {
				line.WriteString(pad + c)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}

// num formats a number with about four significant digits, whole numbers
// above 10^4 in full.
func num(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NA"
	case math.IsInf(v, 0):
		return fmt.Sprint(v)
	case v == 0: // -0 too: a response without variance has exact zeros
		return "0"
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 1e4:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// statNum shows a statistic in [0, 1]-ish ranges with 4 decimals.
func statNum(v float64) string {
	if math.IsNaN(v) {
		return "NA"
	}
	if math.Abs(v) >= 100 {
		return num(v)
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

func sci(v float64) string {
	if math.IsNaN(v) {
		return "NA"
	}
	return strconv.FormatFloat(v, 'e', 3, 64)
}

func ratio(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "NA"
	}
	return noNegativeZero(strconv.FormatFloat(v, 'f', 3, 64))
}

// noNegativeZero drops the sign of a number that prints as zero ("-0.000":
// -0, or a negative that rounds to it).
func noNegativeZero(s string) string {
	if strings.HasPrefix(s, "-") && strings.Trim(s[1:], "0.") == "" {
		return s[1:]
	}
	return s
}

func meanStd(d Describe) string { return num(d.Mean) + " (" + num(d.Std) + ")" }

// pValue prints p as R does: below the machine epsilon as "< 2.2e-16".
func pValue(p float64) string {
	switch {
	case math.IsNaN(p):
		return "NA"
	case p < 2.220446e-16:
		return "< 2.2e-16"
	}
	return strconv.FormatFloat(p, 'g', 3, 64)
}

func stars(p float64) string {
	switch {
	case math.IsNaN(p):
		return ""
	case p < 0.001:
		return " ***"
	case p < 0.01:
		return " **"
	case p < 0.05:
		return " *"
	}
	return ""
}

// count prints a count with thin spaces between thousands, as the thesis.
func count(n float64) string {
	s := strconv.FormatFloat(n, 'f', 0, 64)
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ' ')
		}
		out = append(out, s[i])
	}
	return string(out)
}
