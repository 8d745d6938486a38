//go:build 386 || arm || mips || mipsle

package sched

//go:nosplit
func timespecSec(s int64) int32 { return int32(s) }

//go:nosplit
func timespecNsec(ns int64) int32 { return int32(ns) }
