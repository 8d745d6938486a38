package gateway

import (
	"bytes"
	"errors"
	"fmt"
)

// response is what the load generator needs of an HTTP/1.x response
// header: the status, where the body ends and whether the connection stays.
type response struct {
	headerLen  int   // bytes up to and including the blank line; 0 until it came
	status     int   // e.g. 200
	bodyLen    int64 // Content-Length
	untilClose bool  // no Content-Length: the body ends when the connection does
	close      bool  // the server closes the connection after this response
}

var (
	headerEnd        = []byte("\r\n\r\n")
	hContentLength   = []byte("content-length:")
	hConnection      = []byte("connection:")
	hTransferEncode  = []byte("transfer-encoding:")
	tokenClose       = []byte("close")
	tokenKeepAlive   = []byte("keep-alive")
	errChunked       = errors.New("a chunked response: the load generator reads bodies with a Content-Length or up to the connection's end")
	errNotHTTP       = errors.New("not an HTTP/1.x response")
	errContentLength = errors.New("a bad Content-Length")
)

// parse reads the header at the start of b, if it is all there; it leaves
// headerLen 0 when more must be read.
func (r *response) parse(b []byte) error {
	end := bytes.Index(b, headerEnd)
	if end < 0 {
		if len(b) >= 5 && !bytes.HasPrefix(b, []byte("HTTP/")) {
			return errNotHTTP
		}
		return nil
	}
	head := b[:end+2]
	// The status line: HTTP/1.1 200 OK
	if len(head) < 12 || !bytes.HasPrefix(head, []byte("HTTP/1.")) || head[8] != ' ' {
		return fmt.Errorf("%w: %q", errNotHTTP, firstLine(head))
	}
	status := 0
	for _, c := range head[9:12] {
		if c < '0' || c > '9' {
			return fmt.Errorf("%w: %q", errNotHTTP, firstLine(head))
		}
		status = status*10 + int(c-'0')
	}
	r.status = status
	r.close = head[7] == '0' // HTTP/1.0 closes unless it says keep-alive
	haveLength := false
	line := head[bytes.IndexByte(head, '\n')+1:]
	for len(line) > 0 {
		i := bytes.IndexByte(line, '\n')
		if i < 0 {
			break
		}
		h := bytes.TrimRight(line[:i], "\r")
		line = line[i+1:]
		switch {
		case hasPrefixFold(h, hContentLength):
			v := bytes.TrimSpace(h[len(hContentLength):])
			if len(v) == 0 || len(v) > 18 {
				return errContentLength
			}
			var n int64
			for _, c := range v {
				if c < '0' || c > '9' {
					return errContentLength
				}
				n = n*10 + int64(c-'0')
			}
			r.bodyLen, haveLength = n, true
		case hasPrefixFold(h, hConnection):
			v := bytes.TrimSpace(h[len(hConnection):])
			if bytes.EqualFold(v, tokenClose) {
				r.close = true
			} else if bytes.EqualFold(v, tokenKeepAlive) {
				r.close = false
			}
		case hasPrefixFold(h, hTransferEncode):
			return errChunked
		}
	}
	// 1xx, 204 and 304 have no body.
	if !haveLength && !(status/100 == 1 || status == 204 || status == 304) {
		r.untilClose, r.close = true, true
	}
	r.headerLen = end + 4
	return nil
}

func hasPrefixFold(b, prefix []byte) bool {
	return len(b) >= len(prefix) && bytes.EqualFold(b[:len(prefix)], prefix)
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\r'); i >= 0 {
		b = b[:i]
	}
	if len(b) > 60 {
		b = b[:60]
	}
	return b
}
