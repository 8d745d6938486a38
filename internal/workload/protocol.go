package workload

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sync"
)

// Message is one line of the worker protocol: the worker writes one JSON
// object per line on stdout and the controller reads them. Kind says which
// fields are set.
type Message struct {
	Kind    string  `json:"kind"` // hello, sample, note, error, done
	Metric  string  `json:"metric,omitempty"`
	Value   float64 `json:"value,omitempty"`
	Key     string  `json:"key,omitempty"`
	Text    string  `json:"text,omitempty"`       // note value or error text
	UnixNs  int64   `json:"unix_ns,omitempty"`    // hello: when the worker started
	Version string  `json:"version,omitempty"`    // hello: the binary's version
	PID     int     `json:"pid,omitempty"`        // hello: the worker's process id
	Elapsed int64   `json:"elapsed_ns,omitempty"` // done: wall time of the workload
}

// Message kinds.
const (
	KindHello  = "hello"
	KindSample = "sample"
	KindNote   = "note"
	KindError  = "error"
	KindDone   = "done"
)

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

// Decode reads protocol lines from r and calls fn for each. Lines that are
// not protocol JSON (e.g. a crash dump on a shared stream) are passed to fn
// as a message of kind "text".
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
			fn(Message{Kind: "text", Text: string(line)})
			continue
		}
		fn(m)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading worker output: %w", err)
	}
	return nil
}
