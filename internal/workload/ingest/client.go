package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/latency"
)

// warmupTimeout bounds the warm-up: devices that have not sent their
// warm-up messages by then start measuring when they have.
const warmupTimeout = 60 * time.Second

// Client implements workload.Sides: the devices. Each sends its
// warm-up messages; once all have (the seed's warm-up), every device sends
// in a closed loop for the duration; then the client asks the server side
// for the nodes' figures and reports everything.
func (c *config) Client(ctx context.Context, addr string, e workload.Emitter) error {
	if err := raiseOpenFiles(uint64(c.devices) + 256); err != nil {
		return fmt.Errorf("%d devices: %w", c.devices, err)
	}
	var rtt latency.Shared
	seed := rand.Uint64()
	devices := make([]*device, c.devices)
	for i := range devices {
		devices[i] = newDevice(i+1, addr, c.payload, seed)
	}
	// sending ends when the measured time is over (or ctx ends): dials
	// stop and the messages in flight are cut off, uncounted.
	sending, stopSending := context.WithCancel(ctx)
	defer stopSending()
	var stopped atomic.Bool
	start := make(chan struct{})
	var endAt time.Time // set before start is closed
	var warmed, done sync.WaitGroup
	warmed.Add(len(devices))
	done.Add(len(devices))
	for _, d := range devices {
		go func() {
			defer done.Done()
			for range c.warmup {
				if _, err := d.send(sending, true); err != nil {
					d.warmupErrors++
					if errors.Is(err, errDial) {
						pause(sending, 50*time.Millisecond)
					}
				}
			}
			warmed.Done()
			select {
			case <-start:
			case <-sending.Done():
				return
			}
			for !stopped.Load() {
				t0 := time.Now()
				status, err := d.send(sending, false)
				t1 := time.Now()
				if stopped.Load() || t1.After(endAt) {
					return // not answered within the measured time: uncounted
				}
				switch {
				case err == nil && status >= 200 && status < 300:
					d.ok++
					rtt.Record(t1.Sub(t0))
				default:
					d.countError(status, err)
					if errors.Is(err, errDial) {
						pause(sending, 10*time.Millisecond)
					}
				}
			}
		}()
	}
	if !waitGroup(ctx, &warmed, warmupTimeout) && ctx.Err() == nil {
		e.Note("warmup", fmt.Sprintf("not every device had sent its %d warm-up messages within %v; the late ones joined when they had", c.warmup, warmupTimeout))
	}
	cpu0 := cpuTime()
	t0 := time.Now()
	endAt = t0.Add(c.duration)
	close(start)
	select {
	case <-time.After(c.duration):
	case <-ctx.Done():
	}
	stopped.Store(true)
	stopSending()
	for _, d := range devices {
		d.interrupt()
	}
	done.Wait()
	elapsed := time.Since(t0)
	cpuUsed := cpuTime() - cpu0
	for _, d := range devices {
		d.drop()
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	rep, repErr := endSession(ctx, addr)
	report(e, *c, devices, &rtt, rep, repErr)
	e.Note("client_cpu_pct", strconv.FormatFloat(100*cpuUsed.Seconds()/elapsed.Seconds(), 'f', 1, 64))
	return nil
}

// report emits the run's figures: the devices' and the nodes'.
func report(e workload.Emitter, c config, devices []*device, rtt *latency.Shared, rep serverReport, repErr error) {
	var ok, httpErrs, transportErrs, warmErrs uint64
	silent := 0 // devices without an acknowledged message: starved, or the system failed them
	statuses := map[int]uint64{}
	for _, d := range devices {
		if d.ok == 0 {
			silent++
		}
		ok += d.ok
		httpErrs += d.httpErrors
		transportErrs += d.transportErrors
		warmErrs += d.warmupErrors
		for s, n := range d.statuses {
			statuses[s] += n
		}
	}
	sent := ok + httpErrs + transportErrs
	e.Sample("messages", float64(ok))
	e.Sample("messages_per_s", float64(ok)/c.duration.Seconds())
	if sent > 0 {
		e.Sample("error_pct", 100*float64(httpErrs+transportErrs)/float64(sent))
	}
	if ok > 0 {
		h := rtt.Counts()
		e.Sample("rr_q1_ms", ms(h.Quantile(0.25)))
		e.Sample("rr_median_ms", ms(h.Quantile(0.5)))
		e.Sample("rr_q3_ms", ms(h.Quantile(0.75)))
	}
	e.Note("devices", strconv.Itoa(c.devices))
	e.Note("devices_without_ack", strconv.Itoa(silent))
	e.Note("http_errors", strconv.FormatUint(httpErrs, 10))
	e.Note("transport_errors", strconv.FormatUint(transportErrs, 10))
	if len(statuses) > 0 {
		e.Note("error_statuses", formatCounts(statuses))
	}
	if warmErrs > 0 {
		e.Note("warmup_errors", strconv.FormatUint(warmErrs, 10))
	}
	if repErr != nil {
		e.Note("node_figures", "none: "+repErr.Error())
		return
	}
	nodes := latency.Counts{}
	perNode := map[int]uint64{}
	for _, n := range rep.Nodes {
		nodes.Merge(n.Counts)
		perNode[n.Index] = n.Requests
	}
	e.Note("node_messages", formatCounts(perNode))
	if len(rep.Problems) > 0 {
		e.Note("node_problems", strings.Join(rep.Problems, "; "))
	}
	if nodes.Total() > 0 {
		e.Sample("node_q1_us", us(nodes.Quantile(0.25)))
		e.Sample("node_median_us", us(nodes.Quantile(0.5)))
		e.Sample("node_q3_us", us(nodes.Quantile(0.75)))
	}
}

// endSession tells the server side the devices are done and reads the
// nodes' figures.
func endSession(ctx context.Context, addr string) (serverReport, error) {
	var rep serverReport
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+pathEnd, nil)
	resp, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
	if err != nil {
		return rep, fmt.Errorf("asking the server side for the nodes' figures: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return rep, fmt.Errorf("asking the server side for the nodes' figures: %s", resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&rep); err != nil {
		return rep, fmt.Errorf("reading the nodes' figures: %w", err)
	}
	return rep, nil
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
func us(d time.Duration) float64 { return float64(d) / 1e3 }

// formatCounts writes "k:n k:n" in key order.
func formatCounts(m map[int]uint64) string {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d:%d", k, m[k])
	}
	return strings.Join(parts, " ")
}

// pause waits d or until ctx ends.
func pause(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// waitGroup waits for wg at most timeout; false when it gave up.
func waitGroup(ctx context.Context, wg *sync.WaitGroup, timeout time.Duration) bool {
	ch := make(chan struct{})
	go func() { wg.Wait(); close(ch) }()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// raiseOpenFiles lets this process open need files, raising the hard limit
// too when it may (as root).
func raiseOpenFiles(need uint64) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	if lim.Cur >= need {
		return nil
	}
	want := lim
	want.Cur = need
	want.Max = max(lim.Max, need)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want); err != nil {
		return fmt.Errorf("they need %d open files, but this process may open %d (hard limit %d) and cannot raise it (%v): raise it (ulimit -n) or simulate fewer devices", need, lim.Cur, lim.Max, err)
	}
	return nil
}
