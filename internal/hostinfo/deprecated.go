package hostinfo

import "maps"

// This file keeps Host's deprecated fields per engine (Docker, Podman,
// PodmanRootless, LXC) in step with Engines until their last users move to
// Engines (issue 26: cli/run.go's studyHost and the report's host lines);
// then it goes, with the fields.

// engines is Engines with the deprecated fields' engines for the keys it
// lacks.
func (h Host) engines() map[string]Engine {
	out := maps.Clone(h.Engines)
	if out == nil {
		out = map[string]Engine{}
	}
	add := func(key string, e Engine, set bool) {
		if _, ok := out[key]; !ok && set {
			out[key] = e
		}
	}
	add("docker", h.Docker, h.Docker != nil)
	if h.Podman != nil {
		add("podman", &Podman{*h.Podman}, true)
	}
	if h.PodmanRootless != nil {
		add("podman_rootless", &Podman{*h.PodmanRootless}, true)
	}
	add("lxc", h.LXC, h.LXC != nil)
	return out
}

// setDeprecated sets the deprecated fields from Engines.
func (h *Host) setDeprecated() {
	h.Docker, _ = h.Engines["docker"].(*Docker)
	h.Podman, h.PodmanRootless = nil, nil
	if p, ok := h.Engines["podman"].(*Podman); ok {
		h.Podman = &p.Docker
	}
	if p, ok := h.Engines["podman_rootless"].(*Podman); ok {
		h.PodmanRootless = &p.Docker
	}
	h.LXC, _ = h.Engines["lxc"].(*LXC)
}
