// Package latency counts latencies in a histogram whose recording
// allocates nothing and takes a few nanoseconds, so timing a request, a
// round trip or a message does not disturb what is timed.
//
// Precision, the same for every workload that reports a percentile:
//
//   - below 512 ns, every nanosecond is a bucket of its own: exact;
//   - above, 256 buckets per power of two, up to the largest uint64: a
//     percentile is within half a bucket, 1/512 (0.2 %) of the true
//     value: 60 ns at a 30 µs round trip, 2 µs at a 1 ms request.
//
// A percentile is the nearest rank's bucket middle, kept within the
// smallest and largest value recorded; those two and the mean are exact.
//
// It replaces four histograms: gateway's (64 buckets per power of two),
// ingest's and mqtt's (128), net's (100 ns buckets to 2 ms, the values
// above kept exactly in a list that grew and allocated while it measured).
// It is finer than the first three everywhere; against net's it is finer
// below 25 µs and coarser above (0.2 % against 50 ns), which no round
// trip's run-to-run spread comes near. A layout as fine as net's at every
// value below 2 ms took 152 KiB; mqtt keeps one per client (up to 5,000),
// so the size decided.
//
// A Histogram holds 14,592 32-bit counts, 57 KiB; Shared (64-bit) twice
// that.
package latency
