// Package docker is a small client for the Docker Engine API, just large
// enough for boxtax: check that the daemon answers, record its facts (version,
// storage driver, cgroups), build the worker image from an in-memory context,
// and create, attach to, start, wait for, inspect, kill and remove containers.
//
// It speaks HTTP over the daemon's unix socket (or plain TCP) with net/http and
// pins the API version to 1.41, which every engine from 20.10 on serves. It
// avoids the moby client module on purpose: that pulls in dozens of packages
// for the dozen calls made here.
//
// Errors from the daemon are *Error values carrying its message; a daemon
// that cannot be reached gives an *UnreachableError that says what to do.
package docker
