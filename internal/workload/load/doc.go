// Package load holds background loads: workloads meant to run beside a
// measured one, through a background factor of a study, rather than to be
// measured themselves. load.cpu is the thesis's CPU load (seed 002, Section
// 4.3.2.4) built in: workers that compute pi for a duty share of each short
// period at a real-time priority just below the measured task's.
// load.stress-ng runs stress-ng itself with the same settings, for those who
// want the very tool the thesis used.
//
// Both run until their context ends when duration is 0, which is how a
// background factor uses them: the runner stops them when the measured run
// ends.
package load
