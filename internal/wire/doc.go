// Package wire emulates the link between a network client and the device
// under test: a network namespace of the client's own, joined to the host by
// a veth pair, optionally shaped with tc's token bucket filter (tbf) to a
// link rate, say the 100 Mbit/s Ethernet of the seeds' Raspberry Pis.
//
// Traffic on a wire never leaves the machine: its two ends have addresses
// from 198.18.0.0/15, the block RFC 2544 sets aside for benchmarking, and
// the namespace has no other link and no route but its own /30. A wire is
// made with iproute2 (ip, tc), needs CAP_NET_ADMIN and CAP_SYS_ADMIN (root),
// and adds no firewall or NAT rules: packets from the namespace arrive on the
// host's end of the pair as they would on an Ethernet port, so Docker's own
// rules (DNAT to a published port, FORWARD to the bridge) treat them as they
// treat a client on another machine.
//
// Every namespace is named boxtax-<pid>-<n> after the process that made it,
// so that one left behind by a killed boxtax is recognised and removed by
// the next (RemoveStale).
package wire
