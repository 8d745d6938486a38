package stats

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Term is one term of a model formula: the factors whose interaction it
// is, in the order they first appear in the formula. A main effect has one
// factor; deployment:kernel has two.
type Term []string

// String renders the term as R labels it, e.g. "deployment:kernel".
func (t Term) String() string { return strings.Join(t, ":") }

// Order is the number of factors in the term.
func (t Term) Order() int { return len(t) }

// ParseFormula reads the right-hand side of a model formula in R's notation
// (a leading "y ~" or "~" is ignored): terms joined by +, interactions by :,
// crossing by * (a*b is a + b + a:b), parentheses, and (...)^n for all
// interactions up to order n. Terms are returned as R orders them for
// sequential sums of squares: by order (main effects, then two-way
// interactions, ...), and in the order written within an order; a term
// written twice counts once. Variable names are letters, digits, _ and .;
// others can be quoted in backticks. The intercept is implied.
func ParseFormula(formula string) ([]Term, error) {
	if i := strings.Index(formula, "~"); i >= 0 {
		formula = formula[i+1:]
	}
	p := &formulaParser{src: formula}
	p.next()
	sets, err := p.sum()
	if err != nil {
		return nil, err
	}
	if p.tok != "" {
		return nil, p.errorf("unexpected %q", p.tok)
	}
	if len(sets) == 0 {
		return nil, fmt.Errorf("model formula %q has no terms", formula)
	}
	// Variables in a term go in the order they first appear in the formula.
	rank := map[string]int{}
	for _, v := range p.seen {
		if _, ok := rank[v]; !ok {
			rank[v] = len(rank)
		}
	}
	var terms []Term
	seen := map[string]bool{}
	for _, s := range sets {
		t := Term(slices.Clone(s))
		slices.SortFunc(t, func(a, b string) int { return rank[a] - rank[b] })
		if key := t.String(); !seen[key] {
			seen[key] = true
			terms = append(terms, t)
		}
	}
	slices.SortStableFunc(terms, func(a, b Term) int { return a.Order() - b.Order() })
	return terms, nil
}

// formulaParser is a recursive-descent parser over sets of variable sets.
type formulaParser struct {
	src  string
	pos  int
	tok  string // the current token: a name, an operator, "" at the end
	name bool   // the current token is a variable name
	seen []string
}

func (p *formulaParser) errorf(format string, a ...any) error {
	return fmt.Errorf("model formula %q: %s (at character %d)", strings.TrimSpace(p.src), fmt.Sprintf(format, a...), p.pos)
}

func (p *formulaParser) next() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' || p.pos < len(p.src) && p.src[p.pos] == '\t' {
		p.pos++
	}
	p.name = false
	if p.pos >= len(p.src) {
		p.tok = ""
		return
	}
	c := p.src[p.pos]
	switch {
	case strings.IndexByte("+:*()^", c) >= 0:
		p.tok = string(c)
		p.pos++
	case c == '`':
		end := strings.IndexByte(p.src[p.pos+1:], '`')
		if end < 0 {
			p.tok, p.pos = "`", len(p.src)
			return
		}
		p.tok, p.name = p.src[p.pos+1:p.pos+1+end], true
		p.pos += end + 2
	default:
		start := p.pos
		for p.pos < len(p.src) {
			r := rune(p.src[p.pos])
			if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r >= 0x80) {
				break
			}
			p.pos++
		}
		if p.pos == start {
			p.tok = string(c)
			p.pos++
			return
		}
		p.tok, p.name = p.src[start:p.pos], true
	}
}

// sum := product ('+' product)*
func (p *formulaParser) sum() ([][]string, error) {
	out, err := p.product()
	if err != nil {
		return nil, err
	}
	for p.tok == "+" {
		p.next()
		more, err := p.product()
		if err != nil {
			return nil, err
		}
		if len(out)+len(more) > MaxFormulaTerms {
			return nil, p.sizeError()
		}
		out = union(out, more)
	}
	return out, nil
}

// product := power ((':' | '*') power)*
func (p *formulaParser) product() ([][]string, error) {
	out, err := p.power()
	if err != nil {
		return nil, err
	}
	for p.tok == ":" || p.tok == "*" {
		op := p.tok
		p.next()
		more, err := p.power()
		if err != nil {
			return nil, err
		}
		if err := p.checkSize(out, more); err != nil {
			return nil, err
		}
		if op == "*" {
			out = union(union(out, more), interact(out, more))
		} else {
			out = interact(out, more)
		}
		// a*b holds a, b and a:b: up to |a|+|b|+|a||b| terms, which
		// checkSize's bound on each part does not bound (found by fuzzing)
		if len(out) > MaxFormulaTerms {
			return nil, p.sizeError()
		}
	}
	return out, nil
}

// power := atom ('^' integer)?
func (p *formulaParser) power() ([][]string, error) {
	out, err := p.atom()
	if err != nil {
		return nil, err
	}
	if p.tok != "^" {
		return out, nil
	}
	p.next()
	n, err := strconv.Atoi(p.tok)
	if !p.name || err != nil || n < 1 {
		return nil, p.errorf("^ needs a whole number of 1 or more, not %q", p.tok)
	}
	p.next()
	base := out
	for range n - 1 {
		if err := p.checkSize(out, base); err != nil {
			return nil, err
		}
		grown := union(out, interact(out, base))
		if len(grown) == len(out) {
			break // every interaction is already there: (a+b)^1e9 is (a+b)^2
		}
		if len(grown) > MaxFormulaTerms {
			return nil, p.sizeError()
		}
		out = grown
	}
	return out, nil
}

// MaxFormulaTerms bounds a model: (a+b+...+z)^30 would otherwise expand to
// tens of millions of terms and never finish, which no study's design can
// estimate anyway.
const MaxFormulaTerms = 1024

// checkSize refuses an interaction of a and b that could make more terms
// than MaxFormulaTerms.
func (p *formulaParser) checkSize(a, b [][]string) error {
	if len(a)*len(b) > MaxFormulaTerms || len(a)+len(b) > MaxFormulaTerms {
		return p.sizeError()
	}
	return nil
}

func (p *formulaParser) sizeError() error {
	return fmt.Errorf("model formula %q expands to more than %d terms: name fewer factors or a lower order of interaction", p.src, MaxFormulaTerms)
}

// atom := name | '(' sum ')'
func (p *formulaParser) atom() ([][]string, error) {
	switch {
	case p.tok == "(":
		p.next()
		out, err := p.sum()
		if err != nil {
			return nil, err
		}
		if p.tok != ")" {
			return nil, p.errorf("missing )")
		}
		p.next()
		return out, nil
	case p.name:
		if _, err := strconv.Atoi(p.tok); err == nil {
			return nil, p.errorf("%q is a number, not a variable (models here always have an intercept)", p.tok)
		}
		name := p.tok
		p.seen = append(p.seen, name)
		p.next()
		return [][]string{{name}}, nil
	case p.tok == "":
		return nil, p.errorf("a term is missing at the end")
	}
	return nil, p.errorf("unexpected %q", p.tok)
}

// union appends the sets of b not already in a.
func union(a, b [][]string) [][]string {
	out := slices.Clone(a)
	for _, s := range b {
		if !containsSet(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// interact makes every set of a joined with every set of b (a:a is a).
func interact(a, b [][]string) [][]string {
	var out [][]string
	for _, x := range a {
		for _, y := range b {
			s := slices.Clone(x)
			for _, v := range y {
				if !slices.Contains(s, v) {
					s = append(s, v)
				}
			}
			if !containsSet(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

func containsSet(sets [][]string, s []string) bool {
	for _, t := range sets {
		if sameSet(t, s) {
			return true
		}
	}
	return false
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, v := range a {
		if !slices.Contains(b, v) {
			return false
		}
	}
	return true
}
