// Package cli maps boxtax's command line onto the logic packages: one file
// per verb, each turning flags into an options struct and calling one
// function. All I/O goes through Globals so commands run in-process in tests.
package cli
