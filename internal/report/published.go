package report

// The published values a report can show beside its own: package
// report/papers holds the transcribed tables and fills these in (see
// Report.ShowPapers); the formats render them.

// PaperComparison is one published table beside this study's numbers.
type PaperComparison struct {
	Paper    string   `json:"paper"`
	Citation string   `json:"citation"`
	Source   string   `json:"source"`
	Setup    string   `json:"setup"`
	Table    string   `json:"table"` // "Table III"
	Title    string   `json:"title"`
	Devices  []string `json:"devices"` // the paper's machines, one published column each
	// DeviceInfo describes each device: "RPi 2: Raspberry Pi 2 model B: ...".
	DeviceInfo []string   `json:"device_info"`
	Rows       []PaperRow `json:"rows"`
	Notes      []string   `json:"notes"`
}

// PaperRow is one published quantity in one configuration, on every device
// of the paper and on this machine.
type PaperRow struct {
	Column string `json:"column"` // e.g. "SCALE, Mb/s"
	Conf   string `json:"conf"`   // the paper's configuration
	Env    string `json:"env"`    // the boxtax environment it corresponds to
	First  bool   `json:"-"`      // first row of its column
	// OwnMapping: the row maps to a metric of its own (a sentence of the
	// text), so its boxtax metric is printed on it, not once per column.
	OwnMapping bool     `json:"-"`
	Published  []string `json:"published"`
	// PublishedPct holds the published % deviations in boxtax's sign
	// convention (null for the baseline); Sign says how the paper printed
	// them (SignSigned, SignLower, SignHigher; "" when none is a %).
	PublishedPct []*float64 `json:"published_pct"`
	Sign         string     `json:"sign,omitempty"`
	Boxtax       string     `json:"boxtax"` // the metric compared, or why there is none
	Status       string     `json:"status"` // measured, not measured, no equivalent
	// Levels is the paper's setup for this row (wire, instances, load...);
	// Cell names the cell of this study compared with it, or Missing says
	// why none is.
	Levels   map[string]string `json:"levels,omitempty"`
	Cell     string            `json:"cell,omitempty"`
	Missing  string            `json:"missing,omitempty"`
	Ours     string            `json:"ours"` // this machine, in the table layout
	OursPct  *float64          `json:"ours_pct"`
	OursCI95 []*float64        `json:"ours_ci95,omitempty"`
	OursMean *float64          `json:"ours_mean,omitempty"` // in the boxtax metric's unit
	// Statistic names what OursStat is: "mean of 5 runs", or the paper's
	// own statistic where it states one (Kałaska: the median of the runs
	// left after dropping the best and the worst).
	Statistic string   `json:"statistic,omitempty"`
	OursStat  *float64 `json:"ours_stat,omitempty"` // in the boxtax metric's unit
	// Diff is, per device, ours minus the published value: in percentage
	// points for a published % deviation, relative to it for a published
	// value (DiffUnit); null where either is missing.
	Diff     []*float64 `json:"diff,omitempty"`
	DiffUnit string     `json:"diff_unit,omitempty"`
	// OursSignificant: the interval excludes 0 and rests on a test (two
	// constant samples have none).
	OursSignificant bool `json:"ours_significant"`
}

// Comparison statuses.
const (
	PaperMeasured     = "measured"
	PaperNotMeasured  = "not measured"
	PaperNoEquivalent = "no equivalent"
)

// Units of PaperRow.Diff.
const (
	DiffPoints   = "points"         // our % deviation minus the published one
	DiffRelative = "% of published" // (ours - published) / published
)
