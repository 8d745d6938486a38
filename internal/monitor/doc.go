// Package monitor samples the host around and during runs. For now it reads
// the host's CPU utilisation from /proc/stat, which the runner uses to let the
// machine settle before each run and to record how busy it was.
package monitor
