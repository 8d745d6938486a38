package docker

import (
	"reflect"
	"testing"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
)

func TestPublishOnlyWithANetworkOfItsOwn(t *testing.T) {
	ports := []env.Port{{Proto: "tcp", Port: 40000, HostIP: "198.18.0.1"}, {Proto: "udp", Port: 40000, HostIP: "198.18.0.1"}}
	bridge := &Env{name: "docker-bridge", networkMode: "bridge"}
	exposed, bindings := bridge.publish(ports)
	wantExposed := map[string]struct{}{"40000/tcp": {}, "40000/udp": {}}
	wantBindings := map[string][]docker.PortBinding{
		"40000/tcp": {{HostIP: "198.18.0.1", HostPort: "40000"}},
		"40000/udp": {{HostIP: "198.18.0.1", HostPort: "40000"}},
	}
	if !reflect.DeepEqual(exposed, wantExposed) || !reflect.DeepEqual(bindings, wantBindings) {
		t.Errorf("bridge: exposed %v, bindings %v", exposed, bindings)
	}
	if !bridge.OwnNetwork() {
		t.Error("docker-bridge has a network of its own")
	}
	host := &Env{name: "docker-host", networkMode: "host"}
	if e, b := host.publish(ports); e != nil || b != nil || host.OwnNetwork() {
		t.Errorf("docker-host publishes %v %v", e, b)
	}
	if got := env.PortList(ports); got != "198.18.0.1:40000->40000/tcp,198.18.0.1:40000->40000/udp" {
		t.Errorf("port list %q", got)
	}
}
