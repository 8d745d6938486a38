// Package ingest holds iot.ingest, the seeds' DeviceHive study (seed 003)
// scaled to one machine: simulated devices POST 36 random bytes in a loop
// through a real nginx, which balances them round-robin over K ingest
// nodes, each an OS process of its own with its own CPU affinity, storing
// every message in a real redis.
//
// The server side (workload.ClientServer's Serve) runs in the environment
// under test and starts redis, the nodes and nginx; the client side stands
// outside and simulates the devices, each a goroutine with a keep-alive
// connection of its own. A node is this package's code in the same binary,
// started again with a hidden first argument (see nodeArg0) so that it can
// be pinned apart from the others.
//
// Processing time is measured inside each node (request read to reply
// written, as the seed's servlet timer) and request-response time at the
// client; both are counted in allocation-free histograms, and the first
// messages of every device (warm-up) are left out of every figure.
package ingest
