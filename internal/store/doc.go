// Package store keeps studies, their runs and every sample in an embedded
// SQLite file (pure Go driver, no cgo). A run is committed in one transaction
// when it ends, so a crash or Ctrl-C loses at most the run in flight, and a
// study whose runs are still pending can be resumed.
package store
