package launch

import (
	"fmt"
	"net"
	"strconv"

	"github.com/boxtax/boxtax/internal/workload"
)

// serverPort is the port of a pair's server: the workload's own when it
// has one (workload.FixedPorter: an image's program at the port it
// exposes, the same in every environment), else one picked free.
func (p pairPlan) serverPort() (int, func(), error) {
	fp, ok := p.sides.(workload.FixedPorter)
	if !ok || fp.FixedPort() == 0 {
		return takePort(p.hostAddr, p.sides.Protocols())
	}
	port := fp.FixedPort()
	ln, err := net.Listen("tcp4", net.JoinHostPort(p.hostAddr, strconv.Itoa(port)))
	if err != nil {
		return 0, nil, fmt.Errorf("the server listens at port %d, which is taken on %s: stop what listens there (ss -ltnp 'sport = %d'), or give the study another port: %w", port, p.hostAddr, port, err)
	}
	ln.Close()
	return port, func() {}, nil
}
