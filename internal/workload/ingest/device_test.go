package ingest

import (
	"bufio"
	"strings"
	"testing"
)

func TestReadResponse(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		status   int
		keep     bool
	}{
		{"created", "HTTP/1.1 201 Created\r\nServer: nginx\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n", 201, true},
		{"bad gateway with a body", "HTTP/1.1 502 Bad Gateway\r\ncontent-length: 5\r\n\r\nhello", 502, true},
		{"close", "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno", 503, false},
		{"chunked", "HTTP/1.1 500 Internal Server Error\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 500, true},
		{"http/1.0", "HTTP/1.0 201 Created\r\nContent-Length: 0\r\n\r\n", 201, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A second response follows: the first must be read exactly.
			r := bufio.NewReader(strings.NewReader(tc.in + "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n"))
			status, keep, err := readResponse(r)
			if err != nil || status != tc.status || keep != tc.keep {
				t.Fatalf("status %d keep %v err %v, want %d %v", status, keep, err, tc.status, tc.keep)
			}
			if status, _, err := readResponse(r); err != nil || status != 201 {
				t.Errorf("the next response: %d %v", status, err)
			}
		})
	}
	if _, _, err := readResponse(bufio.NewReader(strings.NewReader("SSH-2.0-OpenSSH\r\n"))); err == nil {
		t.Error("a non-HTTP answer was taken")
	}
}
