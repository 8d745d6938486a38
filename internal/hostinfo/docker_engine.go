package hostinfo

// DockerEngine is the Docker engine's facts (Engines["docker"]), nil when
// the study recorded none: the one engine the report's host lines name.
func (h Host) DockerEngine() *Docker {
	d, _ := h.Engines["docker"].(*Docker)
	return d
}
