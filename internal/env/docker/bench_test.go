package docker

import (
	"context"
	"io"
	"strconv"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/envtest"
)

// BenchmarkStartOverhead measures what starting a worker costs in each
// environment: from Start (for containers: create, attach, start, inspect)
// to the worker's first output, to its exit with all output copied, and the
// removal that follows. The worker prints one line and exits, so the times
// are the environment's alone. Native is the reference, measured in the
// same run:
//
//	go test -run '^$' -bench StartOverhead -benchtime 20x ./internal/env/
func BenchmarkStartOverhead(b *testing.B) {
	_, opts := setupDocker(b)
	for _, name := range []string{"native", "docker-bridge", "docker-host"} {
		b.Run(name, func(b *testing.B) {
			e := envtest.NewPrepared(b, Environments(), name, opts)
			ctx := context.Background()
			var firstOutput, exit, stop time.Duration
			var createMs, startMs float64
			for b.Loop() {
				out := &envtest.FirstWrite{Started: make(chan struct{})}
				t0 := time.Now()
				inst, err := e.Start(ctx, env.Spec{Args: []string{"lines", "1"}}, out, io.Discard)
				if err != nil {
					b.Fatal(err)
				}
				createMs += settingMs(b, inst.Settings(), "create_ms")
				startMs += settingMs(b, inst.Settings(), "start_ms")
				<-out.Started
				firstOutput += time.Since(t0)
				if err := inst.Wait(); err != nil {
					b.Fatal(err)
				}
				exit += time.Since(t0)
				t1 := time.Now()
				if err := inst.Stop(ctx); err != nil {
					b.Fatal(err)
				}
				stop += time.Since(t1)
			}
			n := float64(b.N) * float64(time.Millisecond)
			b.ReportMetric(float64(firstOutput)/n, "first-output-ms/op")
			b.ReportMetric(float64(exit)/n, "exit-ms/op")
			b.ReportMetric(float64(stop)/n, "stop-ms/op")
			if name != "native" {
				b.ReportMetric(createMs/float64(b.N), "create-ms/op")
				b.ReportMetric(startMs/float64(b.N), "start-ms/op")
			}
		})
	}
}

// settingMs reads a duration setting such as create_ms; 0 when absent.
func settingMs(b *testing.B, s env.Settings, key string) float64 {
	if s[key] == "" {
		return 0
	}
	ms, err := strconv.ParseFloat(s[key], 64)
	if err != nil {
		b.Fatalf("setting %s = %q: %v", key, s[key], err)
	}
	return ms
}
