package docker

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"
)

// frame makes one frame of a multiplexed stream.
func frame(stream byte, payload string) []byte {
	h := make([]byte, frameHeaderLen, frameHeaderLen+len(payload))
	h[0] = stream
	binary.BigEndian.PutUint32(h[4:], uint32(len(payload)))
	return append(h, payload...)
}

func TestDemux(t *testing.T) {
	big := strings.Repeat("x", 100<<10) // larger than the copy buffer
	tests := []struct {
		name       string
		stream     []byte
		wantOut    string
		wantErr    string
		wantErrIs  error
		wantStderr string
	}{
		{name: "empty stream", stream: nil},
		{
			name:       "interleaved",
			stream:     bytes.Join([][]byte{frame(1, "a\n"), frame(2, "e1\n"), frame(1, "b\n"), frame(2, "e2\n")}, nil),
			wantOut:    "a\nb\n",
			wantStderr: "e1\ne2\n",
		},
		{name: "empty frame", stream: append(frame(1, ""), frame(1, "z")...), wantOut: "z"},
		{name: "stdin goes to stdout", stream: frame(0, "in"), wantOut: "in"},
		{name: "frame larger than the buffer", stream: frame(1, big), wantOut: big},
		{name: "header cut short", stream: frame(1, "ok")[:5], wantErrIs: io.ErrUnexpectedEOF},
		{name: "payload cut short", stream: frame(1, "hello")[:10], wantOut: "he", wantErrIs: io.ErrUnexpectedEOF},
		{name: "daemon error", stream: append(frame(1, "x"), frame(3, "oops\n")...), wantOut: "x", wantErr: "docker daemon, in the output stream: oops"},
		{name: "unknown stream", stream: frame(7, "?"), wantErr: "unknown stream 7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := Demux(&out, &errOut, bytes.NewReader(tt.stream))
			switch {
			case tt.wantErrIs != nil:
				if !errors.Is(err, tt.wantErrIs) {
					t.Errorf("error = %v, want %v", err, tt.wantErrIs)
				}
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error = %v, want it to contain %q", err, tt.wantErr)
				}
			case err != nil:
				t.Errorf("unexpected error: %v", err)
			}
			if out.String() != tt.wantOut {
				t.Errorf("stdout = %.40q (%d bytes), want %.40q (%d bytes)", out.String(), out.Len(), tt.wantOut, len(tt.wantOut))
			}
			if errOut.String() != tt.wantStderr {
				t.Errorf("stderr = %q, want %q", errOut.String(), tt.wantStderr)
			}
		})
	}
}

func TestDemuxNilWritersDiscard(t *testing.T) {
	if err := Demux(nil, nil, bytes.NewReader(append(frame(1, "a"), frame(2, "b")...))); err != nil {
		t.Fatal(err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestDemuxWriteError(t *testing.T) {
	err := Demux(failingWriter{}, nil, bytes.NewReader(frame(1, "a")))
	if err == nil || !strings.Contains(err.Error(), "copying container stdout: disk full") {
		t.Fatalf("error = %v, want the write error", err)
	}
}
