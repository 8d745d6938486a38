// Package latency counts latencies in a histogram whose recording
// allocates nothing and takes a few nanoseconds, so timing a request, a
// round trip or a message does not disturb what is timed.
//
// Precision, the same for every workload that reports a percentile:
//
//   - below 256 ns, every nanosecond is a bucket of its own: exact;
//   - from 256 ns to 8,192 ns, 128 buckets per power of two: a
//     percentile is within 0.4 % (half a bucket) of the true value;
//   - from 8,192 ns to 2,097,152 ns (2.1 ms), buckets 64 ns wide: within
//     32 ns, finer than the 100 ns round-trip buckets the net workload
//     had;
//   - above, 128 buckets per power of two again: within 0.4 %, up to the
//     largest uint64.
//
// A percentile is the nearest rank's bucket middle, kept within the
// smallest and largest value recorded; those two and the mean are exact.
//
// It replaces four histograms: gateway's (64 buckets per power of two),
// ingest's and mqtt's (128), net's (100 ns buckets to 2 ms). At every value
// below 2 ms it is at least as fine as the finest of them. Above 2 ms net
// kept its round trips exactly, in a list that grew (and allocated) while
// it measured; they are now within 0.4 %, like everyone else's.
//
// A Histogram holds 39,040 32-bit counts, 152 KiB; Shared twice that.
package latency
