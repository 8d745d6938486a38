package gateway

import (
	"errors"
	"testing"
)

func TestResponseParse(t *testing.T) {
	for _, tc := range []struct {
		name              string
		in                string
		headerLen, status int
		bodyLen           int64
		untilClose, close bool
		err               error
	}{
		{"keep-alive", "HTTP/1.1 200 OK\r\nContent-Length: 52\r\nContent-Type: x\r\n\r\n{", 56, 200, 52, false, false, nil},
		{"close", "HTTP/1.1 200 OK\r\ncontent-length:3\r\nConnection: close\r\n\r\nabc", 56, 200, 3, false, true, nil},
		{"1.0", "HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nabc", 38, 200, 3, false, true, nil},
		{"1.0 keep-alive", "HTTP/1.0 200 OK\r\nContent-Length: 3\r\nConnection: Keep-Alive\r\n\r\n", 62, 200, 3, false, false, nil},
		{"until close", "HTTP/1.1 200 OK\r\nServer: x\r\n\r\nab", 30, 200, 0, true, true, nil},
		{"no body", "HTTP/1.1 204 No Content\r\n\r\n", 27, 204, 0, false, false, nil},
		{"not found", "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", 45, 404, 0, false, false, nil},
		{"incomplete", "HTTP/1.1 200 OK\r\nContent-Len", 0, 0, 0, false, false, nil},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", 0, 200, 0, false, false, errChunked},
		{"garbage", "SSH-2.0-OpenSSH\r\n", 0, 0, 0, false, false, errNotHTTP},
		{"bad status", "HTTP/1.1 2x0 OK\r\n\r\n", 0, 0, 0, false, false, errNotHTTP},
		{"bad length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", 0, 200, 0, false, false, errContentLength},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r response
			err := r.parse([]byte(tc.in))
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			if r.headerLen != tc.headerLen || r.status != tc.status || r.bodyLen != tc.bodyLen || r.untilClose != tc.untilClose || r.close != tc.close {
				t.Errorf("got %+v, want header %d status %d body %d untilClose %v close %v", r, tc.headerLen, tc.status, tc.bodyLen, tc.untilClose, tc.close)
			}
		})
	}
}

func TestRequestBytes(t *testing.T) {
	if got := string(newRequest("h:1", "/p", true)); got != "GET /p HTTP/1.1\r\nHost: h:1\r\nUser-Agent: boxtax\r\nAccept: */*\r\n\r\n" {
		t.Errorf("keep-alive request %q", got)
	}
	if got := string(newRequest("h:1", "/p", false)); got != "GET /p HTTP/1.1\r\nHost: h:1\r\nUser-Agent: boxtax\r\nAccept: */*\r\nConnection: close\r\n\r\n" {
		t.Errorf("closing request %q", got)
	}
}
