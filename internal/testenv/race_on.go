//go:build race

package testenv

// Race tells whether the tests run under the race detector.
const Race = true
