// Package idle is the sys.idle workload: it does nothing for a while, so the
// monitors measure the device at rest: idle power and temperature (seed 001
// Figs 17 and 21 start from them).
package idle

import (
	"context"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// Idle is sys.idle.
var Idle = workload.Define[idleConfig](workload.Info{
	Name:     "sys.idle",
	Summary:  "do nothing for a while: the monitors measure idle power and temperature",
	SeedTool: "idle measurement (Morabito 2017)",
	Metrics: []workload.Metric{
		{Name: "idle_s", Unit: "s", Label: "idle s", Secondary: true,
			Description: "how long the worker actually stayed idle; the figures of interest are the monitors' mon.power_W and mon.temp_*"},
	},
})

// idleConfig is sys.idle's parameters.
type idleConfig struct {
	duration time.Duration
}

// Declare implements workload.Declarer.
func (c *idleConfig) Declare(d *workload.Decl) {
	d.Duration(&c.duration, "duration", 30*time.Second, "how long to stay idle")
}

// Run sleeps for the duration, or until stopped.
func (c *idleConfig) Run(ctx context.Context, _ workload.Env, e workload.Emitter) error {
	d := c.duration
	start := time.Now()
	select {
	case <-time.After(d):
	case <-ctx.Done():
		return ctx.Err()
	}
	e.Sample("idle_s", time.Since(start).Seconds())
	return nil
}
