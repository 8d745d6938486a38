//go:build amd64 || arm64 || riscv64 || ppc64le || s390x || loong64 || mips64 || mips64le

package sched

//go:nosplit
func timespecSec(s int64) int64 { return s }

//go:nosplit
func timespecNsec(ns int64) int64 { return ns }
