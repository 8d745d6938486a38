// Package hostprog starts and supervises the programs a workload runs
// beside itself on the host or in its container (mosquitto, redis, nginx,
// an ingest node): one Process starts a program, notices its death when it
// happens, waits for it to be ready, keeps the end of what it printed for
// the error that quotes it, and stops and reaps it. Tail is that keeper of
// the last bytes, also used for a worker's stderr.
package hostprog
