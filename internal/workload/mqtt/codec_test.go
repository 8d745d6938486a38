package mqtt

import (
	"bytes"
	"errors"
	"math"
	"testing"
	"time"
)

func TestRemainingLength(t *testing.T) {
	// The examples of MQTT 3.1.1 section 2.2.3.
	cases := []struct {
		n    int
		want []byte
	}{
		{0, []byte{0x00}},
		{127, []byte{0x7f}},
		{128, []byte{0x80, 0x01}},
		{16383, []byte{0xff, 0x7f}},
		{16384, []byte{0x80, 0x80, 0x01}},
		{2097151, []byte{0xff, 0xff, 0x7f}},
		{2097152, []byte{0x80, 0x80, 0x80, 0x01}},
		{maxRemaining, []byte{0xff, 0xff, 0xff, 0x7f}},
	}
	for _, c := range cases {
		got := appendRemaining(nil, c.n)
		if !bytes.Equal(got, c.want) {
			t.Errorf("appendRemaining(%d) = % x, want % x", c.n, got, c.want)
		}
		n, err := readRemaining(bytes.NewReader(c.want))
		if err != nil || n != c.n {
			t.Errorf("readRemaining(% x) = %d, %v, want %d", c.want, n, err, c.n)
		}
	}
	if _, err := readRemaining(bytes.NewReader([]byte{0xff, 0xff, 0xff, 0xff, 0x01})); !errors.Is(err, errMalformed) {
		t.Errorf("five length bytes: %v, want malformed", err)
	}
}

func TestConnectBytes(t *testing.T) {
	got := appendConnect(nil, "ab", 60)
	want := []byte{0x10, 14, 0, 4, 'M', 'Q', 'T', 'T', 4, 0x02, 0, 60, 0, 2, 'a', 'b'}
	if !bytes.Equal(got, want) {
		t.Fatalf("CONNECT % x, want % x", got, want)
	}
	rd := newReader(bytes.NewReader(got), 64, 1024)
	p, err := rd.read()
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseConnect(p)
	if err != nil || c.level != 4 || !c.clean || c.keepAlive != 60 || c.clientID != "ab" {
		t.Errorf("parseConnect = %+v, %v", c, err)
	}
}

func TestPublishRoundTrip(t *testing.T) {
	for _, qos := range []byte{0, 1, 2} {
		payload := bytes.Repeat([]byte{7}, 300) // a two-byte remaining length
		b := appendPublish(nil, "a/b", qos, qos == 2, 513, payload)
		if got := publishHeaderLen(3, qos, len(payload)); got != len(b)-len(payload) {
			t.Errorf("qos %d: publishHeaderLen %d, want %d", qos, got, len(b)-len(payload))
		}
		rd := newReader(bytes.NewReader(b), 16, 1024) // a buffer smaller than the packet
		p, err := rd.read()
		if err != nil {
			t.Fatal(err)
		}
		pub, err := parsePublish(p)
		if err != nil {
			t.Fatal(err)
		}
		wantID := uint16(513)
		if qos == 0 {
			wantID = 0
		}
		if p.kind() != typePublish || pub.qos != qos || pub.retain != (qos == 2) || pub.id != wantID || string(pub.topic) != "a/b" || !bytes.Equal(pub.payload, payload) {
			t.Errorf("qos %d: parsed %+v", qos, pub)
		}
	}
}

func TestAcks(t *testing.T) {
	cases := []struct {
		kind byte
		want []byte
	}{
		{typePuback, []byte{0x40, 2, 1, 2}},
		{typePubrec, []byte{0x50, 2, 1, 2}},
		{typePubrel, []byte{0x62, 2, 1, 2}}, // flags 0010
		{typePubcomp, []byte{0x70, 2, 1, 2}},
	}
	for _, c := range cases {
		b := appendAck(nil, c.kind, 0x0102)
		if !bytes.Equal(b, c.want) {
			t.Errorf("ack %d: % x, want % x", c.kind, b, c.want)
		}
		p, err := newReader(bytes.NewReader(b), 64, 64).read()
		if err != nil {
			t.Fatal(err)
		}
		if id, err := ackID(p); err != nil || id != 0x0102 || p.kind() != c.kind {
			t.Errorf("ack %d read back as kind %d id %x, %v", c.kind, p.kind(), id, err)
		}
	}
}

func TestSubscribeRoundTrip(t *testing.T) {
	b := appendSubscribe(nil, 9, "x/+/z", 2)
	p, err := newReader(bytes.NewReader(b), 64, 64).read()
	if err != nil {
		t.Fatal(err)
	}
	if p.header != 0x82 {
		t.Errorf("SUBSCRIBE header %#x, want 0x82", p.header)
	}
	id, subs, err := parseSubscribe(p, false)
	if err != nil || id != 9 || len(subs) != 1 || subs[0] != (subscription{"x/+/z", 2}) {
		t.Errorf("parseSubscribe = %d %v %v", id, subs, err)
	}
	if got := appendSuback(nil, 9, []byte{2}); !bytes.Equal(got, []byte{0x90, 3, 0, 9, 2}) {
		t.Errorf("SUBACK % x", got)
	}
}

func TestMalformed(t *testing.T) {
	cases := map[string][]byte{
		"qos 3":          {0x36, 5, 0, 1, 'a', 0, 1},
		"topic too long": {0x30, 3, 0, 9, 'a'},
		"packet id 0":    {0x32, 5, 0, 1, 'a', 0, 0},
		"truncated id":   {0x32, 4, 0, 1, 'a', 0},
	}
	for name, b := range cases {
		p, err := newReader(bytes.NewReader(b), 64, 64).read()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := parsePublish(p); !errors.Is(err, errMalformed) {
			t.Errorf("%s: %v, want malformed", name, err)
		}
	}
	if _, err := newReader(bytes.NewReader([]byte{0x30, 100, 1, 2}), 64, 1024).read(); err == nil {
		t.Error("a truncated packet was read")
	}
	if _, err := newReader(bytes.NewReader([]byte{0x30, 0x80, 0x08}), 64, 512).read(); !errors.Is(err, errMalformed) {
		t.Errorf("a body over the limit: %v", err)
	}
}

func TestTopicMatch(t *testing.T) {
	cases := []struct {
		filter, topic string
		want          bool
	}{
		{"a/b", "a/b", true},
		{"a/b", "a/c", false},
		{"a/+", "a/b", true},
		{"a/+", "a/b/c", false},
		{"a/#", "a/b/c", true},
		{"a/#", "a", true},
		{"#", "a/b", true},
		{"+/+", "a/b", true},
		{"+", "a/b", false},
		{"a/+/c", "a//c", true},
		{"#", "$SYS/x", false},
		{"+/x", "$SYS/x", false},
		{"$SYS/#", "$SYS/x", true},
		{"boxtax/bench", "boxtax/bench", true},
	}
	for _, c := range cases {
		if got := topicMatch(c.filter, c.topic); got != c.want {
			t.Errorf("topicMatch(%q, %q) = %v, want %v", c.filter, c.topic, got, c.want)
		}
	}
}

func TestHistogram(t *testing.T) {
	var h histogram
	for i := int64(1); i <= 1000; i++ {
		h.record(i * 1000) // 1 µs .. 1 ms
	}
	if m := h.mean(); math.Abs(m-500500) > 1e-6 {
		t.Errorf("mean %v, want 500500", m)
	}
	for _, c := range []struct{ q, want float64 }{{0.5, 500000}, {0.99, 990000}, {1, 1000000}} {
		if got := h.quantile(c.q); math.Abs(got-c.want)/c.want > 0.005 {
			t.Errorf("quantile %v = %v, want %v within 0.5 %%", c.q, got, c.want)
		}
	}
	if s := h.std(); math.Abs(s-288819.436)/288819.436 > 1e-6 {
		t.Errorf("std %v, want 288819.4", s)
	}
	// The buckets' own precision is tested in package latency.
}

func TestPublishAllocatesNothing(t *testing.T) {
	c := config{topic: "t", qos: 1, payload: 100}
	p := newPublisher(0, &c, "", time.Now())
	var h histogram
	allocs := testing.AllocsPerRun(1000, func() {
		p.stamp(7, time.Now())
		h.record(12345)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per message, want none", allocs)
	}
}
