package docker

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// ContainerAttach connects to a container's stdout and stderr and returns
// the multiplexed stream (read it with Demux). The stream ends when the
// container's output ends, that is when it exits, or when ctx is cancelled
// or the stream is closed.
//
// Attach before ContainerStart and nothing is lost: the daemon registers the
// attachment before it answers, so when this returns every byte the
// container will write is on its way here.
func (c *Client) ContainerAttach(ctx context.Context, id string) (io.ReadCloser, error) {
	q := url.Values{"stream": {"1"}, "stdout": {"1"}, "stderr": {"1"}}
	// Without an Upgrade header the daemon answers 200 and then writes the
	// raw stream on the hijacked connection until it closes it: a plain
	// HTTP/1.1 body delimited by the connection's end, which net/http reads
	// as such and closes when ctx is cancelled.
	resp, err := c.do(ctx, http.MethodPost, "/containers/"+url.PathEscape(id)+"/attach", q, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("attaching to container %s: %w", short(id), err)
	}
	return resp.Body, nil
}

// Stream numbers in the header of each frame of a multiplexed stream.
const (
	streamStdin  = 0
	streamStdout = 1
	streamStderr = 2
	streamSystem = 3 // the daemon reporting an error in the middle of a stream
)

// frameHeaderLen is the size of a frame header: stream byte, three zero
// bytes, then the payload length as a big-endian uint32.
const frameHeaderLen = 8

// Demux copies a multiplexed container stream (what attach and logs send for
// a container without a TTY) to stdout and stderr until src ends. A nil
// writer discards its stream. It returns nil at a clean end of src, and an
// error for a frame cut short, an unknown stream, a failed write, or an
// error the daemon put into the stream.
func Demux(stdout, stderr io.Writer, src io.Reader) error {
	if stdout == nil {
		stdout = io.Discard
	}
	if stderr == nil {
		stderr = io.Discard
	}
	var header [frameHeaderLen]byte
	buf := make([]byte, 32<<10)
	for {
		if _, err := io.ReadFull(src, header[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("reading container output: frame header: %w", err)
		}
		size := int64(binary.BigEndian.Uint32(header[4:]))
		var dst io.Writer
		var name string
		switch header[0] {
		case streamStdin, streamStdout:
			dst, name = stdout, "stdout"
		case streamStderr:
			dst, name = stderr, "stderr"
		case streamSystem:
			var msg strings.Builder
			if _, err := io.CopyN(&msg, src, size); err != nil {
				return fmt.Errorf("reading container output: daemon error frame: %w", err)
			}
			return fmt.Errorf("docker daemon, in the output stream: %s", strings.TrimSpace(msg.String()))
		default:
			return fmt.Errorf("reading container output: unknown stream %d in frame header: "+
				"is this a TTY stream rather than a multiplexed one?", header[0])
		}
		n, err := io.CopyBuffer(dst, io.LimitReader(src, size), buf)
		if err != nil {
			return fmt.Errorf("copying container %s: %w", name, err)
		}
		if n < size {
			return fmt.Errorf("reading container output: %s frame of %d bytes ended after %d: %w",
				name, size, n, io.ErrUnexpectedEOF)
		}
	}
}
