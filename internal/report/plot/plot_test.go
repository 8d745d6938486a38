package plot

import (
	"encoding/xml"
	"io"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const evil = `<script>alert(1)</script>&"'`

// charts is one chart of every kind, each with a hostile label.
func charts() map[string]interface{ SVG() string } {
	nan := math.NaN()
	return map[string]interface{ SVG() string }{
		"bars": Bars{Title: evil, YLabel: "MB/s", Groups: []string{"copy", evil},
			Series: []BarSeries{
				{Name: "native", Values: []float64{10, 20}, Errs: []float64{1, 2}, Points: [][]float64{{9, 10, 11}, {18, 22}}},
				{Name: evil, Values: []float64{12, nan}, Errs: []float64{1, nan}},
			}},
		"lines": Lines{Title: "t", XLabel: evil, YLabel: "events/s", Series: []LineSeries{
			{Name: "native", X: []float64{1, 2, 4}, Y: []float64{10, 19, 30}, Err: []float64{1, 1, 2}},
			{Name: evil, X: []float64{1, 2, 4}, Y: []float64{9, 18, nan}},
		}},
		"stacked": Stacked{Title: "slice", YLabel: "ms", Bars: []string{"native", evil},
			Parts: []StackPart{{Name: "compute", Values: []float64{8, 8.1}}, {Name: evil, Values: []float64{2, 1.9}}}},
		"cdf": CDF{Title: "latency", XLabel: "µs", Markers: true, Series: []CDFSeries{
			{Name: evil, X: []float64{10, 20, 1000, 5000}, P: []float64{0.5, 0.9, 0.99, 1}}}},
		"boxes": Boxes{Title: "runs", YLabel: "MB/s", Groups: []string{evil}, Series: []BoxSeries{
			{Name: "native", Boxes: []Box{{N: 3, Min: 1, Q1: 2, Median: 3, Q3: 4, Max: 5, Points: []float64{1, 3, 5}}}}}},
		"intervals": Intervals{Title: "overhead", XLabel: "%", Rows: []string{evil, "b"}, Series: []IntervalSeries{
			{Name: "docker", Est: []float64{-5, 300}, Lo: []float64{-7, -90}, Hi: []float64{-3, 5000}, Strong: []bool{true, false}}}},
	}
}

func TestEveryChartIsWellFormedXMLAndEscapesLabels(t *testing.T) {
	for name, ch := range charts() {
		t.Run(name, func(t *testing.T) {
			svg := ch.SVG()
			if strings.Contains(svg, "<script") {
				t.Errorf("a label reached the SVG unescaped:\n%s", svg)
			}
			if !strings.Contains(svg, "&lt;script&gt;") {
				t.Errorf("the hostile label is missing altogether")
			}
			dec := xml.NewDecoder(strings.NewReader(svg))
			for {
				_, err := dec.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("not well-formed XML: %v\n%s", err, svg)
				}
			}
			for _, bad := range []string{"NaN", "Inf", "http://", "https://"} {
				if bad == "http://" {
					svg = strings.Replace(svg, `xmlns="http://www.w3.org/2000/svg"`, "", 1)
				}
				if strings.Contains(svg, bad) {
					t.Errorf("SVG holds %q", bad)
				}
			}
		})
	}
}

func TestBarsCountsTheBarsItDraws(t *testing.T) {
	svg := charts()["bars"].SVG()
	if n := strings.Count(svg, `class="bar"`); n != 3 {
		t.Errorf("%d bars drawn, want 3 (a NaN value draws none)", n)
	}
	if !strings.Contains(svg, `data-bars="3"`) {
		t.Errorf("data-bars attribute missing")
	}
	if n := strings.Count(svg, `class="point"`); n != 5 {
		t.Errorf("%d run dots, want 5", n)
	}
}

func TestNiceRange(t *testing.T) {
	tests := []struct {
		lo, hi         float64
		wantLo, wantHi float64
		wantTicks      []float64
	}{
		{0, 26880, 0, 30000, []float64{0, 5000, 10000, 15000, 20000, 25000, 30000}},
		{0, 1, 0, 1, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{-7, 3, -8, 4, []float64{-8, -6, -4, -2, 0, 2, 4}},
		{5, 5, 4.4, 5.6, []float64{4.4, 4.6, 4.8, 5, 5.2, 5.4, 5.6}},
	}
	for _, tt := range tests {
		lo, hi, ticks := niceRange(tt.lo, tt.hi, 6)
		if lo != tt.wantLo || hi != tt.wantHi || !reflect.DeepEqual(ticks, tt.wantTicks) {
			t.Errorf("niceRange(%v, %v) = %v, %v, %v; want %v, %v, %v", tt.lo, tt.hi, lo, hi, ticks, tt.wantLo, tt.wantHi, tt.wantTicks)
		}
	}
}

func TestTickLabelsAreShort(t *testing.T) {
	tests := []struct {
		ticks []float64
		want  []string
	}{
		{[]float64{0, 10000, 20000, 30000}, []string{"0", "10k", "20k", "30k"}},
		{[]float64{0, 2500, 5000}, []string{"0", "2500", "5000"}},
		{[]float64{0, 0.25, 0.5}, []string{"0", "0.25", "0.50"}},
		{[]float64{0, 2e7, 4e7}, []string{"0", "20M", "40M"}},
		{[]float64{0, 12500, 25000}, []string{"0", "12.5k", "25.0k"}},
	}
	for _, tt := range tests {
		f := tickFormatter(tt.ticks)
		var got []string
		for _, v := range tt.ticks {
			got = append(got, f(v))
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ticks %v printed %v, want %v", tt.ticks, got, tt.want)
		}
	}
}

func TestWrapKeepsLabelsInsideTheirSlot(t *testing.T) {
	lines := wrap("rand write IOPS with a very long tail of words", 90)
	if len(lines) != 2 {
		t.Fatalf("lines %q", lines)
	}
	for _, l := range lines {
		if textWidth(l, fontSize) > 90 {
			t.Errorf("line %q is wider than its slot", l)
		}
	}
}

func TestEmptyAndDegenerateChartsStillDraw(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for name, ch := range map[string]interface{ SVG() string }{
		"bars":      Bars{Title: "empty"},
		"bars nan":  Bars{Title: "nan", Groups: []string{"a"}, Series: []BarSeries{{Name: "x", Values: []float64{nan}}}},
		"bars zero": Bars{Title: "zero", Groups: []string{"a"}, Series: []BarSeries{{Name: "x", Values: []float64{0}, Errs: []float64{0}}}},
		"lines":     Lines{Title: "empty"},
		"lines one": Lines{Title: "one", Series: []LineSeries{{Name: "x", X: []float64{4}, Y: []float64{inf}}}},
		"stacked":   Stacked{Title: "empty", Bars: []string{"a"}},
		"cdf":       CDF{Title: "empty", Series: []CDFSeries{{Name: "x"}}},
		"boxes":     Boxes{Title: "empty", Groups: []string{"a"}, Series: []BoxSeries{{Name: "x", Boxes: []Box{{}}}}},
		"intervals": Intervals{Title: "empty", Rows: []string{"r"}, Series: []IntervalSeries{{Name: "x", Est: []float64{nan}}}},
	} {
		svg := ch.SVG()
		if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") || !strings.HasSuffix(svg, "</svg>\n") {
			t.Errorf("%s: %s", name, svg)
		}
	}
}

// Issue 28: a throughput interval reached -165.5 % and the axis ran to
// -200 %. Intervals of non-negative values now stop at -100 %, and so
// does the axis; an estimate of -60 % with an interval to -100 % gets no
// tick below -100 %.
func TestIntervalAxisFitsTheData(t *testing.T) {
	for _, tc := range []struct {
		name        string
		est, lo, hi float64
	}{
		{"the issue's cell, cut at -100", 81.2, -100, 384.6},
		{"-60 down to -100", -60, -100, 10},
		{"-95.8 down to -100", -95.8, -100, 20},
		{"-100 beside a large gain: ticks of 200", 500, -100, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svg := Intervals{Title: "t", Rows: []string{"r"}, Series: []IntervalSeries{{Name: "docker-bridge",
				Est: []float64{tc.est}, Lo: []float64{tc.lo}, Hi: []float64{tc.hi}}}}.SVG()
			ticks := regexp.MustCompile(`class="tick">([-+0-9.]+)%?<`).FindAllStringSubmatch(svg, -1)
			if len(ticks) == 0 {
				t.Fatalf("no ticks:\n%s", svg)
			}
			first, err := strconv.ParseFloat(ticks[0][1], 64)
			if err != nil || first != -100 {
				t.Errorf("the axis starts at %s, want -100%%", ticks[0][1])
			}
		})
	}
	// A value below -100 % (a signed metric) still widens the axis.
	svg := Intervals{Title: "t", Rows: []string{"r"}, Series: []IntervalSeries{{Name: "e", Est: []float64{-150}, Lo: []float64{-180}, Hi: []float64{-120}}}}.SVG()
	if !strings.Contains(svg, `class="tick">-200%<`) {
		t.Errorf("a value below -100 %% must stay on the axis:\n%s", svg)
	}
}
