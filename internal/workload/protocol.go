package workload

import (
	"bufio"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sync"
)

// Message is one line of the worker protocol: the worker writes one JSON
// object per line on stdout and the controller reads them. Kind says which
// fields are set.
type Message struct {
	Kind    string  `json:"kind"` // hello, sample, note, series, error, done; text from Decode
	Metric  string  `json:"metric,omitempty"`
	Value   float64 `json:"value,omitempty"`
	Key     string  `json:"key,omitempty"`
	Text    string  `json:"text,omitempty"`       // note value or error text
	UnixNs  int64   `json:"unix_ns,omitempty"`    // hello: when the worker started
	Version string  `json:"version,omitempty"`    // hello: the binary's version
	PID     int     `json:"pid,omitempty"`        // hello: the worker's process id
	Elapsed int64   `json:"elapsed_ns,omitempty"` // done: wall time of the workload
	Series  string  `json:"series,omitempty"`     // series: its name
	Unit    string  `json:"unit,omitempty"`       // series: the unit of its values
	Packed  string  `json:"packed,omitempty"`     // series: a chunk of values, base64 of little-endian float64
	// Instance is set by the controller, not the worker: which of a run's
	// concurrent instances (1..N) said this; 0 for a single instance.
	Instance int `json:"-"`
}

// Message kinds. The worker writes every kind but KindText, which Decode
// gives a line that is not protocol JSON.
const (
	KindHello  = "hello"
	KindSample = "sample"
	KindNote   = "note"
	KindSeries = "series"
	KindError  = "error"
	KindDone   = "done"
	// KindText is a line that is not protocol JSON, e.g. a crash dump on a
	// shared stream; made by Decode, never sent.
	KindText = "text"
)

// FromServer is what a client-server pair reports of a message its server
// said: a note as the note server.<key>, an error as "server: ..." (it fails
// the run), stray output as the note server.stdout. ok is false for the
// rest (hello, done, samples): a server measures nothing.
func FromServer(m Message) (_ Message, ok bool) {
	switch m.Kind {
	case KindNote:
		m.Key = "server." + m.Key
	case KindError:
		m.Text = "server: " + m.Text
	case KindText:
		m = Message{Kind: KindNote, Key: "server.stdout", Text: m.Text}
	default:
		return m, false
	}
	return m, true
}

// JSONEmitter writes samples and notes as protocol lines. It is safe for
// concurrent use by a workload's threads.
type JSONEmitter struct {
	mu  sync.Mutex
	enc *json.Encoder
}

// NewJSONEmitter writes protocol lines to w.
func NewJSONEmitter(w io.Writer) *JSONEmitter { return &JSONEmitter{enc: json.NewEncoder(w)} }

// Send writes one message.
func (j *JSONEmitter) Send(m Message) {
	j.mu.Lock()
	defer j.mu.Unlock()
	_ = j.enc.Encode(m)
}

// Sample implements Emitter.
func (j *JSONEmitter) Sample(metric string, value float64) {
	j.Send(Message{Kind: KindSample, Metric: metric, Value: value})
}

// Note implements Emitter.
func (j *JSONEmitter) Note(key, value string) { j.Send(Message{Kind: KindNote, Key: key, Text: value}) }

// Series implements SeriesEmitter: the values go out in one line, packed.
func (j *JSONEmitter) Series(name, unit string, values []float64) {
	j.Send(Message{Kind: KindSeries, Series: name, Unit: unit, Packed: PackFloat64s(values)})
}

// PackFloat64s encodes values as base64 of little-endian float64: 8 bytes a
// value on the wire instead of up to 24 characters of decimal.
func PackFloat64s(values []float64) string {
	b := make([]byte, 8*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
	return base64.StdEncoding.EncodeToString(b)
}

// UnpackFloat64s decodes what PackFloat64s made.
func UnpackFloat64s(s string) ([]float64, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%8 != 0 {
		return nil, fmt.Errorf("series chunk is not packed float64 values")
	}
	return BytesToFloat64s(b), nil
}

// BytesToFloat64s reads little-endian float64 values.
func BytesToFloat64s(b []byte) []float64 {
	out := make([]float64, len(b)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}

// Decode reads protocol lines from r and calls fn for each. Lines that are
// not protocol JSON (e.g. a crash dump on a shared stream) are passed to fn
// as a message of kind KindText.
func Decode(r io.Reader, fn func(Message)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		var m Message
		if line[0] != '{' || json.Unmarshal(line, &m) != nil || m.Kind == "" {
			fn(Message{Kind: KindText, Text: string(line)})
			continue
		}
		fn(m)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading worker output: %w", err)
	}
	return nil
}
