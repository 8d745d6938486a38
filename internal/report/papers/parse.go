package papers

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/lazyre"
)

// published is one printed cell.
type published struct {
	value, std float64
	pct        bool   // value is a % deviation (or a stated percentage)
	hasStd     bool   // printed as "value (std)"
	blank      bool   // an empty cell: nothing printed
	bound      string // "<" when printed as an upper bound ("< 2.2e-16")
}

var (
	publishedCell = lazyre.New(`^\s*([+-]?[0-9.]+)\s*(%?)\s*\(\s*([0-9.]+)\s*\)\s*$`)
	// plainCell is a lone number as the seeds print them: digit groups
	// separated by spaces (14 399 960), a decimal comma (0,005; 4,329E+15),
	// in parentheses ((0,298): a share of the intercept), a bound (< 2.2e-16)
	// or a percentage (61.57%).
	plainCell = lazyre.New(`^\s*(<\s*)?(\()?([+-]?[0-9][0-9 ]*(?:[.,][0-9]+)?(?:[eE][+-]?[0-9]+)?)(\))?\s*(%?)\s*$`)
	// sharedCell is a coefficient with its share of the intercept in
	// parentheses, as Masek & Thulin's Table 6.6 prints it ("2.648
	// (0,095)"): the coefficient is the value.
	sharedCell = lazyre.New(`^\s*([+-]?[0-9][0-9.]*)\s+\(\s*[+-]?[0-9]+,[0-9]+\s*\)\s*$`)
)

func parsePublished(s string) (published, error) {
	if t := strings.TrimSpace(s); t == "" || t == "N/A" {
		return published{blank: true}, nil
	}
	if m := publishedCell.Get().FindStringSubmatch(s); m != nil {
		v, _ := strconv.ParseFloat(m[1], 64)
		sd, _ := strconv.ParseFloat(m[3], 64)
		return published{value: v, std: sd, pct: m[2] == "%", hasStd: true}, nil
	}
	if m := sharedCell.Get().FindStringSubmatch(s); m != nil {
		v, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			return published{}, fmt.Errorf("cannot read %q as a number: %w", s, err)
		}
		return published{value: v}, nil
	}
	m := plainCell.Get().FindStringSubmatch(s)
	if m == nil || (m[2] == "(") != (m[4] == ")") {
		return published{}, fmt.Errorf("cannot read %q: want \"mean (std)\", \"+x%% (std)\" or a number as printed (\"14 399 960\", \"0,005\", \"(0,298)\", \"< 2.2e-16\", \"2%%\")", s)
	}
	num := strings.ReplaceAll(strings.ReplaceAll(m[3], " ", ""), ",", ".")
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return published{}, fmt.Errorf("cannot read %q as a number: %w", s, err)
	}
	p := published{value: v, pct: m[5] == "%"}
	if m[1] != "" {
		p.bound = "<"
	}
	return p, nil
}
