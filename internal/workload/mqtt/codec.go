package mqtt

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Packet types of MQTT 3.1.1 (the high nibble of the fixed header).
const (
	typeConnect     byte = 1
	typeConnack     byte = 2
	typePublish     byte = 3
	typePuback      byte = 4
	typePubrec      byte = 5
	typePubrel      byte = 6
	typePubcomp     byte = 7
	typeSubscribe   byte = 8
	typeSuback      byte = 9
	typeUnsubscribe byte = 10
	typeUnsuback    byte = 11
	typePingreq     byte = 12
	typePingresp    byte = 13
	typeDisconnect  byte = 14
)

// maxRemaining is the largest remaining length MQTT can encode (256 MiB - 1).
const maxRemaining = 268435455

// errMalformed is returned for bytes that are not a valid MQTT packet.
var errMalformed = errors.New("malformed MQTT packet")

// packet is one packet read from a connection: its fixed header's first
// byte and its body (variable header and payload). body aliases the
// reader's buffer and is valid until the next read.
type packet struct {
	header byte
	body   []byte
}

func (p packet) kind() byte  { return p.header >> 4 }
func (p packet) flags() byte { return p.header & 0x0f }

// reader reads packets from a connection with one reusable buffer: reading
// a packet allocates nothing once the buffer has grown to the largest one.
type reader struct {
	r   *bufio.Reader
	buf []byte
	max int // the largest body accepted
}

func newReader(r io.Reader, size, maxBody int) *reader {
	return &reader{r: bufio.NewReaderSize(r, size), buf: make([]byte, 0, 256), max: maxBody}
}

// read reads the next packet.
func (rd *reader) read() (packet, error) {
	h, err := rd.r.ReadByte()
	if err != nil {
		return packet{}, err
	}
	n, err := readRemaining(rd.r)
	if err != nil {
		return packet{}, err
	}
	if n > rd.max {
		return packet{}, fmt.Errorf("%w: a body of %d bytes is more than the %d accepted", errMalformed, n, rd.max)
	}
	if cap(rd.buf) < n {
		rd.buf = make([]byte, n)
	}
	body := rd.buf[:n]
	if _, err := io.ReadFull(rd.r, body); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return packet{}, err
	}
	return packet{header: h, body: body}, nil
}

// buffered says whether a whole packet or more waits in the buffer, so a
// caller can defer flushing its replies until the buffer runs dry.
func (rd *reader) buffered() int { return rd.r.Buffered() }

// readRemaining decodes the variable-length remaining length.
func readRemaining(r io.ByteReader) (int, error) {
	n, shift := 0, 0
	for i := 0; i < 4; i++ {
		b, err := r.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return 0, err
		}
		n |= int(b&0x7f) << shift
		if b&0x80 == 0 {
			return n, nil
		}
		shift += 7
	}
	return 0, fmt.Errorf("%w: remaining length longer than 4 bytes", errMalformed)
}

// appendRemaining appends the variable-length encoding of n.
func appendRemaining(b []byte, n int) []byte {
	for {
		d := byte(n & 0x7f)
		n >>= 7
		if n > 0 {
			d |= 0x80
		}
		b = append(b, d)
		if n == 0 {
			return b
		}
	}
}

func appendString(b []byte, s string) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

// appendConnect appends a CONNECT packet of protocol level 4 (3.1.1) with
// a clean session and the given keep-alive in seconds (0: none).
func appendConnect(b []byte, clientID string, keepAlive uint16) []byte {
	rem := 10 + 2 + len(clientID)
	b = append(b, typeConnect<<4)
	b = appendRemaining(b, rem)
	b = appendString(b, "MQTT")
	b = append(b, 4, 0x02) // level 4, clean session
	b = binary.BigEndian.AppendUint16(b, keepAlive)
	return appendString(b, clientID)
}

// appendConnack appends a CONNACK with the given return code.
func appendConnack(b []byte, code byte) []byte { return append(b, typeConnack<<4, 2, 0, code) }

// appendAck appends a two-byte-id acknowledgement: PUBACK, PUBREC, PUBREL
// (whose fixed header flags must be 0010), PUBCOMP or UNSUBACK.
func appendAck(b []byte, kind byte, id uint16) []byte {
	h := kind << 4
	if kind == typePubrel {
		h |= 0x02
	}
	return append(b, h, 2, byte(id>>8), byte(id))
}

// appendPublishAck appends the receiver's answer to pub: PUBACK at QoS 1,
// PUBREC at QoS 2, nothing at QoS 0.
func appendPublishAck(b []byte, pub publish) []byte {
	switch pub.qos {
	case 1:
		return appendAck(b, typePuback, pub.id)
	case 2:
		return appendAck(b, typePubrec, pub.id)
	}
	return b
}

// publishHeaderLen is the length of a PUBLISH packet's bytes before its
// payload, for a topic of topicLen bytes and a payload of n bytes.
func publishHeaderLen(topicLen int, qos byte, n int) int {
	rem := 2 + topicLen + n
	if qos > 0 {
		rem += 2
	}
	return 1 + len(appendRemaining(nil, rem)) + rem - n
}

// appendPublish appends a PUBLISH packet. The packet id is written only for
// QoS 1 and 2; see publishIDOffset to change it in place.
func appendPublish(b []byte, topic string, qos byte, retain bool, id uint16, payload []byte) []byte {
	h := typePublish<<4 | qos<<1
	if retain {
		h |= 1
	}
	rem := 2 + len(topic) + len(payload)
	if qos > 0 {
		rem += 2
	}
	b = append(b, h)
	b = appendRemaining(b, rem)
	b = appendString(b, topic)
	if qos > 0 {
		b = binary.BigEndian.AppendUint16(b, id)
	}
	return append(b, payload...)
}

// appendSubscribe appends a SUBSCRIBE of one topic filter.
func appendSubscribe(b []byte, id uint16, filter string, qos byte) []byte {
	b = append(b, typeSubscribe<<4|0x02)
	b = appendRemaining(b, 2+2+len(filter)+1)
	b = binary.BigEndian.AppendUint16(b, id)
	b = appendString(b, filter)
	return append(b, qos)
}

// appendSuback appends a SUBACK granting the given QoS per filter.
func appendSuback(b []byte, id uint16, granted []byte) []byte {
	b = append(b, typeSuback<<4)
	b = appendRemaining(b, 2+len(granted))
	b = binary.BigEndian.AppendUint16(b, id)
	return append(b, granted...)
}

// publish is a decoded PUBLISH: topic and payload alias the packet body.
type publish struct {
	qos     byte
	dup     bool
	retain  bool
	id      uint16
	topic   []byte
	payload []byte
}

// parsePublish decodes a PUBLISH packet.
func parsePublish(p packet) (publish, error) {
	f := p.flags()
	pub := publish{qos: f >> 1 & 3, dup: f&8 != 0, retain: f&1 != 0}
	if pub.qos == 3 {
		return pub, fmt.Errorf("%w: PUBLISH with QoS 3", errMalformed)
	}
	b := p.body
	if len(b) < 2 {
		return pub, errMalformed
	}
	tl := int(binary.BigEndian.Uint16(b))
	if len(b) < 2+tl {
		return pub, errMalformed
	}
	pub.topic = b[2 : 2+tl]
	b = b[2+tl:]
	if pub.qos > 0 {
		if len(b) < 2 {
			return pub, errMalformed
		}
		pub.id = binary.BigEndian.Uint16(b)
		if pub.id == 0 {
			return pub, fmt.Errorf("%w: packet id 0", errMalformed)
		}
		b = b[2:]
	}
	pub.payload = b
	return pub, nil
}

// ackID reads the packet id of a PUBACK, PUBREC, PUBREL, PUBCOMP, SUBACK or
// UNSUBACK.
func ackID(p packet) (uint16, error) {
	if len(p.body) < 2 {
		return 0, fmt.Errorf("%w: acknowledgement without a packet id", errMalformed)
	}
	return binary.BigEndian.Uint16(p.body), nil
}

// connect is a decoded CONNECT (what the embedded broker needs of it).
type connect struct {
	level      byte
	clean      bool
	keepAlive  uint16
	clientID   string
	hasWill    bool
	willTopic  string
	willQoS    byte
	willRetain bool
	willMsg    []byte
}

// parseConnect decodes a CONNECT packet of MQTT 3.1 or 3.1.1.
func parseConnect(p packet) (connect, error) {
	var c connect
	b := p.body
	str := func() ([]byte, error) {
		if len(b) < 2 {
			return nil, errMalformed
		}
		n := int(binary.BigEndian.Uint16(b))
		if len(b) < 2+n {
			return nil, errMalformed
		}
		s := b[2 : 2+n]
		b = b[2+n:]
		return s, nil
	}
	name, err := str()
	if err != nil {
		return c, err
	}
	if string(name) != "MQTT" && string(name) != "MQIsdp" {
		return c, fmt.Errorf("%w: protocol name %q", errMalformed, name)
	}
	if len(b) < 4 {
		return c, errMalformed
	}
	c.level, c.keepAlive = b[0], binary.BigEndian.Uint16(b[2:])
	flags := b[1]
	b = b[4:]
	c.clean = flags&0x02 != 0
	id, err := str()
	if err != nil {
		return c, err
	}
	c.clientID = string(id)
	if flags&0x04 != 0 {
		c.hasWill, c.willQoS, c.willRetain = true, flags>>3&3, flags&0x20 != 0
		t, err := str()
		if err != nil {
			return c, err
		}
		m, err := str()
		if err != nil {
			return c, err
		}
		c.willTopic, c.willMsg = string(t), append([]byte(nil), m...)
	}
	// User name and password are accepted and ignored: the broker allows
	// anonymous clients, as the benchmark's mosquitto does.
	return c, nil
}

// subscription is one topic filter of a SUBSCRIBE with its requested QoS.
type subscription struct {
	filter string
	qos    byte
}

// parseSubscribe decodes a SUBSCRIBE (or, with noQoS, an UNSUBSCRIBE).
func parseSubscribe(p packet, noQoS bool) (uint16, []subscription, error) {
	b := p.body
	if len(b) < 2 {
		return 0, nil, errMalformed
	}
	id := binary.BigEndian.Uint16(b)
	b = b[2:]
	var subs []subscription
	for len(b) > 0 {
		if len(b) < 2 {
			return 0, nil, errMalformed
		}
		n := int(binary.BigEndian.Uint16(b))
		if len(b) < 2+n {
			return 0, nil, errMalformed
		}
		s := subscription{filter: string(b[2 : 2+n])}
		b = b[2+n:]
		if !noQoS {
			if len(b) < 1 || b[0] > 2 {
				return 0, nil, fmt.Errorf("%w: requested QoS missing or above 2", errMalformed)
			}
			s.qos = b[0]
			b = b[1:]
		}
		subs = append(subs, s)
	}
	if len(subs) == 0 {
		return 0, nil, fmt.Errorf("%w: no topic filter", errMalformed)
	}
	return id, subs, nil
}

// topicMatch reports whether topic matches filter, with the wildcards +
// (one level) and # (this level and all below).
// Topics beginning with $ ($SYS) match no filter beginning with a wildcard.
func topicMatch(filter, topic string) bool {
	if len(topic) > 0 && topic[0] == '$' && len(filter) > 0 && (filter[0] == '+' || filter[0] == '#') {
		return false
	}
	for {
		if filter == "#" {
			return true
		}
		fl, frest, fmore := cut(filter)
		tl, trest, tmore := cut(topic)
		if fl != "+" && fl != tl {
			return false
		}
		if !fmore && !tmore {
			return true
		}
		if !fmore {
			return false
		}
		if !tmore {
			return frest == "#" // "a/#" matches "a"
		}
		filter, topic = frest, trest
	}
}

func cut(s string) (level, rest string, more bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
