package ingest

import (
	"bufio"
	"strings"
	"testing"
)

func TestReadingAnAnswerAllocatesNothing(t *testing.T) {
	resp := "HTTP/1.1 201 Created\r\nServer: nginx/1.22.1\r\nDate: Sat, 21 Nov 2026 08:00:00 GMT\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n"
	src := strings.NewReader(resp)
	r := bufio.NewReader(src)
	allocs := testing.AllocsPerRun(1000, func() {
		src.Reset(resp)
		r.Reset(src)
		if status, keep, err := readResponse(r); status != 201 || !keep || err != nil {
			t.Fatal(status, keep, err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per answer, want 0", allocs)
	}
}
