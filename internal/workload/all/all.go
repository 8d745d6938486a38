// Package all registers every built-in workload: a binary that imports it
// for its side effects can run any of them by name.
//
//	import _ "github.com/boxtax/boxtax/internal/workload/all"
package all

import (
	_ "github.com/boxtax/boxtax/internal/workload/command" // cmd
	_ "github.com/boxtax/boxtax/internal/workload/cpu"     // cpu.prime, cpu.linpack
	_ "github.com/boxtax/boxtax/internal/workload/disk"    // disk.seq, disk.rand, disk.iozone
	_ "github.com/boxtax/boxtax/internal/workload/gateway" // http.gateway
	_ "github.com/boxtax/boxtax/internal/workload/idle"    // sys.idle
	_ "github.com/boxtax/boxtax/internal/workload/ingest"  // iot.ingest
	_ "github.com/boxtax/boxtax/internal/workload/load"    // load.cpu, load.stress-ng
	_ "github.com/boxtax/boxtax/internal/workload/mem"     // mem.stream, mem.mbw
	_ "github.com/boxtax/boxtax/internal/workload/mixed"   // load.mixed
	_ "github.com/boxtax/boxtax/internal/workload/mqtt"    // mqtt.pub
	_ "github.com/boxtax/boxtax/internal/workload/network" // net.tcp, net.udp, net.rr
	_ "github.com/boxtax/boxtax/internal/workload/npb"     // npb.is, npb.ep, npb.cg, npb.mg, npb.ft
	_ "github.com/boxtax/boxtax/internal/workload/rt"      // rt.periodic, rt.periodic-io
	_ "github.com/boxtax/boxtax/internal/workload/startup" // ctr.startup
)
