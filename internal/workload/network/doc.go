// Package network holds the network workloads: net.tcp (bulk TCP bandwidth,
// as iperf), net.udp (UDP at a target rate or flat out, with loss and
// jitter, as iperf -u) and net.rr (request-response round trips over TCP
// or UDP, as netperf TCP_RR and UDP_RR).
//
// Each has two sides (workload.ClientServer): the server runs in the
// environment under test and the client stands outside it and measures, as
// in the seed studies, where the client was a separate PC. Both sides are
// this package's code in the one boxtax binary. A session starts with a TCP
// control connection to the server's port; bulk and request-response data
// go over further TCP connections to the same port, or over UDP to the same
// port number. Every TCP connection opens with a 16-byte hello naming the
// session, so one server serves exactly one client session.
//
// Throughput is measured at the receiver, from the first byte received to
// the last, whichever side receives; round trips are timed by the client.
package network
