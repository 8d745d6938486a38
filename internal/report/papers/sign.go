package papers

import (
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/report"
)

// Sign conventions: how a paper's printed percentage reads, declared per
// table (sign:) or per row. boxtax's own is "signed": (container -
// baseline) / baseline, so a throughput 50 % lower is -50 %.
const (
	// SignSigned: printed with boxtax's sign (Krylovskiy's tables, Marques'
	// statements as transcribed).
	SignSigned = "signed"
	// SignLower: a magnitude by which the container's figure is lower than
	// the baseline's ("an overhead of 50%" in a throughput).
	SignLower = "lower"
	// SignHigher: a magnitude by which it is higher ("the percentage
	// increase ... 181%" in an activation time).
	SignHigher = "higher"
	// SignUnstated: a magnitude whose sentence gives no direction
	// ("an approximately 2% percentage difference"): printed as stated,
	// never read as lower or higher, so nothing is compared with it.
	SignUnstated = "unstated"
)

// signConventions lists the valid sign: values, for messages.
var signConventions = []string{SignSigned, SignLower, SignHigher, SignUnstated}

// signOf is the sign convention of a row of t: the row's, else the table's.
func (t Table) signOf(row RowSpec) string {
	if row.Sign != "" {
		return row.Sign
	}
	return t.Sign
}

// checkSign verifies that a printed percentage states its sign convention,
// a known one, and that a magnitude is printed without a sign.
func checkSign(sign, cell string) error {
	switch sign {
	case SignSigned:
		return nil
	case SignLower, SignHigher, SignUnstated:
		if t := strings.TrimSpace(cell); strings.HasPrefix(t, "+") || strings.HasPrefix(t, "-") {
			return fmt.Errorf("%q carries a sign, yet sign: %s says it is a magnitude: write sign: signed, or the magnitude", cell, sign)
		}
		return nil
	case "":
		return fmt.Errorf("%q is a percentage without a sign convention: add sign: (one of %s) to its table or row", cell, strings.Join(signConventions, ", "))
	}
	return fmt.Errorf("unknown sign convention %q; valid: %s", sign, strings.Join(signConventions, ", "))
}

// signedPct is a printed percentage in boxtax's convention; ok is false for
// a magnitude without a direction (SignUnstated), which has none.
func signedPct(v float64, sign string) (pct float64, ok bool) {
	if sign == SignUnstated {
		return 0, false
	}
	return signedValue(v, sign), true
}

// signedValue reads a printed percentage v by a convention with a
// direction: a magnitude lower is negative, higher positive, signed as is.
func signedValue(v float64, sign string) float64 {
	switch sign {
	case SignLower:
		return -abs(v)
	case SignHigher:
		return abs(v)
	}
	return v
}

// signedText is a printed percentage as printed, with its reading in
// boxtax's convention when the paper printed a magnitude: "50% lower =
// -50.0%".
func signedText(text string, v float64, sign string) string {
	switch sign {
	case SignLower, SignHigher:
		return fmt.Sprintf("%s %s = %s", text, sign, report.FmtPct(signedValue(v, sign)))
	case SignUnstated:
		return text + ", no direction stated"
	}
	return text
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
