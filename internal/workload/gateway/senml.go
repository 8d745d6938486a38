package gateway

import (
	"math"
	"strconv"
	"strings"
)

// ReadingPath is where the gateway serves the latest reading: LinkSmart's
// REST API names a resource /rest/<device>/<resource>; the device is the
// seed's iAM indoor air monitor.
const ReadingPath = "/rest/iam/reading"

// SessionPath is the request a client holds open for its session.
const SessionPath = "/boxtax/session"

// ContentType is the media type of a SenML JSON body (RFC 8428).
const ContentType = "application/senml+json"

// reading is one value of a device agent: a number, or text when the
// agent's output is not a number.
type reading struct {
	name, unit string
	value      float64
	text       string // used when isText
	isText     bool
	decimals   int // digits after the point; -1: as few as tell the value exactly
}

// senml encodes r as the SenML JSON document the gateway serves: a base
// name for the device and one entry, in the draft SenML of the seed's time
// (draft-jennings-core-senml, with an "e" array; RFC 8428 came later):
//
//	{"bn":"iam/","e":[{"n":"co2","u":"ppm","v":612.35}]}
//
// A simulated CO2 reading (400.00 to 999.99 ppm, two decimals) makes it
// exactly 52 bytes, the size of the seed's body.
func senml(r reading) []byte {
	b := make([]byte, 0, 64)
	b = append(b, `{"bn":"iam/","e":[{"n":`...)
	b = strconv.AppendQuote(b, r.name)
	if r.unit != "" {
		b = append(b, `,"u":`...)
		b = strconv.AppendQuote(b, r.unit)
	}
	if r.isText {
		b = append(b, `,"vs":`...)
		b = strconv.AppendQuote(b, r.text)
	} else {
		b = append(b, `,"v":`...)
		b = strconv.AppendFloat(b, r.value, 'f', r.decimals, 64)
	}
	return append(b, "}]}"...)
}

// parseReading makes a reading named name of an agent's output: its first
// line, trimmed, as a number when it is one and as text otherwise.
func parseReading(name, out string) reading {
	line, _, _ := strings.Cut(out, "\n")
	line = strings.TrimSpace(line)
	if v, err := strconv.ParseFloat(line, 64); err == nil && !math.IsInf(v, 0) && !math.IsNaN(v) {
		return reading{name: name, value: v, decimals: -1}
	}
	return reading{name: name, text: line, isText: true}
}
