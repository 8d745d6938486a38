package launch

import (
	"testing"

	"github.com/boxtax/boxtax/internal/errtest"
)

func TestParseWireLevel(t *testing.T) {
	cases := []struct {
		in, want, err string
		netns, proxy  bool
		rate          float64
	}{
		{in: "host", want: "host"},
		{in: "proxy", want: "proxy", proxy: true},
		{in: "netns", want: "netns", netns: true},
		{in: "netns:100mbit", want: "netns:100mbit", netns: true, rate: 100e6},
		{in: "netns:1G", want: "netns:1gbit", netns: true, rate: 1e9},
		{in: "netns:fast", err: "at least 8kbit"},
		{in: "host:10mbit", err: "only netns levels have a rate"},
		{in: "wifi", err: "valid levels are host, proxy, netns"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			l, err := ParseWireLevel(c.in)
			if errtest.Want(t, err, c.err) {
				return
			}
			if l.String() != c.want || l.Netns != c.netns || l.Proxy != c.proxy || l.RateBitsPerS != c.rate {
				t.Errorf("got %+v (%s)", l, l)
			}
		})
	}
}
