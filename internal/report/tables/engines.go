package tables

import (
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/env/engines"
	"github.com/boxtax/boxtax/internal/hostinfo"
)

// engineFor names the container engine that ran an environment in one
// line (hostinfo.Engine's Summary), e.g. "Docker Engine 29.0.0, API 1.52,
// overlayfs"; empty for an environment that runs no engine (native) or
// whose engine facts were not recorded. env says which engine's facts an
// environment's are, its options aside.
func engineFor(h hostinfo.Host, envName string) string {
	if e := h.Engines[engines.FactsKey(envName)]; e != nil {
		return e.Summary()
	}
	return ""
}

// enginesLine names the engine beside each container environment of the
// study: "docker-bridge, docker-host: Docker Engine 20.10.24, API 1.41,
// fuse-overlayfs"; empty when no environment ran in an engine.
func enginesLine(h hostinfo.Host, envs []string) string {
	var order []string
	byEngine := map[string][]string{}
	for _, e := range envs {
		eng := engineFor(h, e)
		if eng == "" {
			continue
		}
		if _, ok := byEngine[eng]; !ok {
			order = append(order, eng)
		}
		byEngine[eng] = append(byEngine[eng], e)
	}
	var parts []string
	for _, eng := range order {
		parts = append(parts, fmt.Sprintf("%s: %s", strings.Join(byEngine[eng], ", "), eng))
	}
	return strings.Join(parts, "; ")
}
