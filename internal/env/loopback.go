package env

// NoLoopbackPorts is implemented by environments with a network of their
// own that cannot serve a worker's port at 127.0.0.1 on the host, because
// no userland proxy stands there (lxc; Docker's docker-proxy does). The
// wire level proxy, which measures that proxy, cannot run in them.
type NoLoopbackPorts interface {
	// NoLoopbackPorts says why, in a sentence.
	NoLoopbackPorts() string
}
