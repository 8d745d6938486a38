package hostinfo

import "testing"

func TestDynamicModel(t *testing.T) {
	for _, tt := range []struct{ cmdline, want string }{
		{"console=ttyS0 quiet preempt=full root=/dev/vda", "full"},
		{"console=ttyS0 quiet", ""},
		{"preempt=", ""},
	} {
		if got := cmdlinePreempt(tt.cmdline); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.cmdline, got, tt.want)
		}
	}
	for _, tt := range []struct{ config, want string }{
		{"CONFIG_PREEMPT_BUILD=y\nCONFIG_PREEMPT_NONE=y\n# CONFIG_PREEMPT is not set\nCONFIG_PREEMPT_DYNAMIC=y\n", "none"},
		{"# CONFIG_PREEMPT_NONE is not set\nCONFIG_PREEMPT_VOLUNTARY=y\n", "voluntary"},
		{"CONFIG_PREEMPT=y\nCONFIG_PREEMPT_COUNT=y\n", "full"},
		{"CONFIG_PREEMPT_LAZY=y\n", "lazy"},
		{"", ""},
	} {
		if got := configDefault(tt.config); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.config, got, tt.want)
		}
	}
}
