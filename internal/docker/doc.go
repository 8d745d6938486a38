// Package docker is a small client for the Docker Engine API, just large
// enough for boxtax: check that the daemon answers, record its facts (engine,
// version, storage driver, cgroups), import the worker image from a root
// filesystem archive, and create, attach to, start, wait for, inspect, kill
// and remove containers. Podman's Docker-compatible service answers it too.
//
// It finds the daemon as the docker CLI does (DOCKER_HOST, else the current
// docker context, else /var/run/docker.sock; unix sockets, plain TCP and
// TLS: see ResolveEndpoint) and speaks HTTP with net/http. It negotiates the
// Engine API version with each daemon once (Negotiate): the newest version
// in both the daemon's range and MinAPIVersion..MaxAPIVersion. It avoids the
// moby client module on purpose: that pulls in dozens of packages for the
// dozen calls made here.
//
// Errors from the daemon are *Error values carrying its message; a daemon
// that cannot be reached gives an *UnreachableError that says what to do,
// and one that shares no API version with boxtax a *VersionError naming
// both ranges.
package docker
