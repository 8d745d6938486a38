package hostinfo

import "testing"

func TestSameMachine(t *testing.T) {
	pi := Host{Hostname: "raspberrypi", CPUModel: "ARMv7", CPUs: 4}
	tests := []struct {
		name string
		a, b Host
		want bool
	}{
		{"same machine id, renamed", Host{Hostname: "a", DeviceFacts: DeviceFacts{MachineID: "m1"}}, Host{Hostname: "b", DeviceFacts: DeviceFacts{MachineID: "m1"}}, true},
		{"same hostname, other machine id", Host{Hostname: "raspberrypi", DeviceFacts: DeviceFacts{MachineID: "m1"}}, Host{Hostname: "raspberrypi", DeviceFacts: DeviceFacts{MachineID: "m2"}}, false},
		{"no machine id: hostname and CPU", pi, pi, true},
		{"no machine id: other CPU count", pi, Host{Hostname: "raspberrypi", CPUModel: "ARMv7", CPUs: 2}, false},
		{"a new kernel is the same machine", Host{Hostname: "h", KernelRelease: "6.1", DeviceFacts: DeviceFacts{MachineID: "m"}}, Host{Hostname: "h", KernelRelease: "6.8", DeviceFacts: DeviceFacts{MachineID: "m"}}, true},
		{"nothing known", Host{}, Host{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SameMachine(tt.a, tt.b); got != tt.want {
				t.Errorf("SameMachine = %v, want %v", got, tt.want)
			}
		})
	}
}
