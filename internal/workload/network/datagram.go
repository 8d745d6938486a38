package network

import (
	"encoding/binary"
	"errors"
	"math"
	"net"
	"sync"
	"time"
)

// datagramHeader is the head of every bulk UDP datagram: "BXTu", the
// session, a sequence number and the send time in Unix nanoseconds.
const datagramHeader = 28

const datagramMagic = "BXTu"

// probeSeq marks the probes a receiving client sends so that the server
// learns its address.
const probeSeq = math.MaxUint64

type datagram struct {
	session, seq uint64
	sentNs       int64
}

func putDatagram(b []byte, session, seq uint64, t time.Time) {
	copy(b, datagramMagic)
	binary.BigEndian.PutUint64(b[4:], session)
	binary.BigEndian.PutUint64(b[12:], seq)
	binary.BigEndian.PutUint64(b[20:], uint64(t.UnixNano()))
}

func parseDatagram(b []byte) (datagram, bool) {
	if len(b) < datagramHeader || string(b[:4]) != datagramMagic {
		return datagram{}, false
	}
	return datagram{
		session: binary.BigEndian.Uint64(b[4:]),
		seq:     binary.BigEndian.Uint64(b[12:]),
		sentNs:  int64(binary.BigEndian.Uint64(b[20:])),
	}, true
}

// udpReceived is what a UDP receiver counted.
type udpReceived struct {
	Datagrams  int64   `json:"datagrams"`
	Bytes      int64   `json:"bytes"`
	OutOfOrder int64   `json:"out_of_order"`
	JitterMs   float64 `json:"jitter_ms"`
}

// receiver counts the datagrams of one session as they arrive.
type receiver struct {
	conn    *net.UDPConn
	session uint64

	mu       sync.Mutex
	expected int64 // set by finish: stop once this many arrived
	stopping bool
	done     chan struct{}
	got      udpReceived
}

// drainIdle is how long a receiver that was told to finish waits for
// datagrams still on their way (queued in a shaped link, say).
const drainIdle = 200 * time.Millisecond

func startReceiver(conn *net.UDPConn, session uint64) *receiver {
	r := &receiver{conn: conn, session: session, done: make(chan struct{})}
	go r.loop()
	return r
}

func (r *receiver) loop() {
	defer close(r.done)
	buf := make([]byte, 65536)
	var maxSeq uint64
	var prevTransit int64
	var jitterNs float64
	first := true
	for {
		_ = r.conn.SetReadDeadline(time.Now().Add(drainIdle))
		n, _, err := r.conn.ReadFromUDPAddrPort(buf)
		now := time.Now().UnixNano()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				r.mu.Lock()
				stop := r.stopping
				r.mu.Unlock()
				if stop {
					break
				}
				continue
			}
			break // closed
		}
		d, ok := parseDatagram(buf[:n])
		if !ok || d.session != r.session || d.seq == probeSeq {
			continue
		}
		// RFC 3550 interarrival jitter: J += (|D| - J) / 16.
		transit := now - d.sentNs
		if !first {
			diff := float64(transit - prevTransit)
			jitterNs += (math.Abs(diff) - jitterNs) / 16
		}
		prevTransit = transit
		if !first && d.seq < maxSeq {
			r.got.OutOfOrder++
		} else {
			maxSeq = d.seq
		}
		first = false
		r.got.Datagrams++
		r.got.Bytes += int64(n)
		r.got.JitterMs = jitterNs / 1e6
		r.mu.Lock()
		enough := r.stopping && r.got.Datagrams >= r.expected
		r.mu.Unlock()
		if enough {
			break
		}
	}
	_ = r.conn.SetReadDeadline(time.Time{})
}

// finish tells the receiver that expected datagrams were sent, waits until
// all arrived or none came for drainIdle, and returns the count.
func (r *receiver) finish(expected int64) udpReceived {
	r.mu.Lock()
	r.stopping, r.expected = true, expected
	r.mu.Unlock()
	<-r.done
	return r.got
}
