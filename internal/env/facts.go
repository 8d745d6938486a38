package env

import (
	"context"

	"github.com/boxtax/boxtax/internal/hostinfo"
)

// FactTeller is implemented by environments that run in an engine which
// can tell about itself (its version, API, storage, cgroups): the facts
// are recorded with every study that uses it, in hostinfo.Host.Engines.
type FactTeller interface {
	// FactsKey names the engine's facts in hostinfo.Host.Engines; the
	// environments of one engine share it (docker-bridge and docker-host:
	// "docker").
	FactsKey() string
	// Facts asks the engine about itself: an engine that cannot be asked
	// tells why (Error); nil when it has nothing to tell here (Podman's
	// service not started, LXC not installed).
	Facts(ctx context.Context) hostinfo.Engine
}
