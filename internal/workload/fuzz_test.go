package workload

import (
	"bytes"
	"testing"
)

// FuzzDecode: any worker output decodes into messages without a panic,
// and every non-empty line becomes one message (issue 15: fuzzing). Seed
// corpus: testdata/fuzz/FuzzDecode and the cases below.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"kind":"hello","time_ns":1}` + "\n" + `{"kind":"sample","metric":"x","value":1.5}` + "\n"))
	f.Add([]byte("panic: boom\n\ngoroutine 1 [running]:\n"))
	f.Add([]byte(`{"kind":"series","name":"s","unit":"us","values":"AAAAAAAA8D8="}` + "\n{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		if err := Decode(bytes.NewReader(data), func(Message) { n++ }); err != nil {
			return
		}
		lines := 0
		for _, l := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSuffix(l, []byte("\r"))) > 0 || len(l) > 0 {
				lines++
			}
		}
		if n > lines {
			t.Fatalf("%d messages from %d lines", n, lines)
		}
	})
}
