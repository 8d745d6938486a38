package docker

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
)

// Container is what ContainerInspect reports about a container.
type Container struct {
	ID              string          `json:"Id"` // 64 hex digits
	Name            string          `json:"Name"`
	Image           string          `json:"Image"` // image id, sha256:...
	Created         string          `json:"Created"`
	State           ContainerState  `json:"State"`
	Config          ContainerLabels `json:"Config"`
	HostConfig      HostConfig      `json:"HostConfig"`
	NetworkSettings NetworkSettings `json:"NetworkSettings"`
}

// ContainerState is the run state of a container.
type ContainerState struct {
	Status     string `json:"Status"` // created, running, exited, ...
	Running    bool   `json:"Running"`
	OOMKilled  bool   `json:"OOMKilled"`
	ExitCode   int    `json:"ExitCode"`
	Pid        int    `json:"Pid"`
	Error      string `json:"Error"`
	StartedAt  string `json:"StartedAt"`
	FinishedAt string `json:"FinishedAt"`
}

// ContainerLabels is the part of a container's configuration boxtax reads.
type ContainerLabels struct {
	Image  string            `json:"Image"` // the name it was created from
	Labels map[string]string `json:"Labels"`
}

// NetworkSettings are the container's addresses.
type NetworkSettings struct {
	IPAddress string                     `json:"IPAddress"` // on the default bridge; empty with host networking
	Networks  map[string]EndpointSetting `json:"Networks"`
}

// EndpointSetting is the container's place on one network.
type EndpointSetting struct {
	IPAddress string `json:"IPAddress"`
	Gateway   string `json:"Gateway"`
}

// IP returns the container's IP address: the default bridge's, else the
// first network's in name order; empty with host networking.
func (n NetworkSettings) IP() string {
	if n.IPAddress != "" {
		return n.IPAddress
	}
	names := make([]string, 0, len(n.Networks))
	for name := range n.Networks {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if ip := n.Networks[name].IPAddress; ip != "" {
			return ip
		}
	}
	return ""
}

// ContainerInspect returns the container's state and settings. An
// answer that the container's process vanished while it was looked at
// (exitedMeanwhile) is asked again, a few times.
func (c *Client) ContainerInspect(ctx context.Context, id string) (Container, error) {
	for try := 1; ; try++ {
		var ct Container
		err := c.getJSON(ctx, "/containers/"+url.PathEscape(id)+"/json", nil, &ct)
		if err == nil {
			return ct, nil
		}
		if !exitedMeanwhile(err) || try == inspectTries || ctx.Err() != nil {
			return Container{}, fmt.Errorf("inspecting container %s: %w", short(id), err)
		}
		time.Sleep(time.Duration(try) * 10 * time.Millisecond)
	}
}

// inspectTries bounds ContainerInspect's tries: 150 ms of waiting in all.
const inspectTries = 6

// exitedMeanwhile reports the answer of Podman's compatible API (4.3) to
// an inspect of a container whose process exited during it: HTTP 500,
// "read /proc/PID/cgroup: no such process" (seen once in CI, right after
// a container's non-zero exit). Asked again, it answers with the exited
// container's state.
func exitedMeanwhile(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.StatusCode == http.StatusInternalServerError &&
		strings.Contains(e.Message, "/cgroup: no such process")
}

// ContainerSummary is one line of ContainerList.
type ContainerSummary struct {
	ID      string            `json:"Id"`
	Names   []string          `json:"Names"`
	Image   string            `json:"Image"`
	ImageID string            `json:"ImageID"`
	State   string            `json:"State"`
	Status  string            `json:"Status"`
	Labels  map[string]string `json:"Labels"`
}

// ContainerList lists all containers, running or not, that carry every
// given label; an empty value matches any value of that label.
func (c *Client) ContainerList(ctx context.Context, labels map[string]string) ([]ContainerSummary, error) {
	return listLabeled(ctx, c, "/containers/json", url.Values{"all": {"1"}}, labels, "containers",
		func(ct ContainerSummary) map[string]string { return ct.Labels })
}

// Conditions ContainerWait can wait for.
const (
	// WaitNotRunning returns as soon as the container is not running. Used
	// after ContainerStart has returned it is free of races: a container that
	// already exited is reported at once with its exit code. (Before start it
	// would return at once, as a created container does not run.)
	WaitNotRunning = "not-running"
	// WaitNextExit waits for the next exit; the daemon registers the wait
	// before it answers with headers, so it must be sent before start.
	WaitNextExit = "next-exit"
	// WaitRemoved waits until the container is removed.
	WaitRemoved = "removed"
)

// ExitStatus is how a container ended, as ContainerWait reports it.
type ExitStatus struct {
	Code  int    // the process's exit code; 137 when killed by SIGKILL
	Error string // the daemon's error while waiting, if any
}

// ContainerWait blocks until the container meets the condition and returns
// its exit status. Cancelling ctx abandons the wait.
func (c *Client) ContainerWait(ctx context.Context, id, condition string) (ExitStatus, error) {
	var out struct {
		StatusCode int `json:"StatusCode"`
		Error      *struct {
			Message string `json:"Message"`
		} `json:"Error"`
	}
	q := url.Values{"condition": {condition}}
	if err := c.sendJSON(ctx, http.MethodPost, "/containers/"+url.PathEscape(id)+"/wait", q, nil, &out); err != nil {
		return ExitStatus{}, fmt.Errorf("waiting for container %s: %w", short(id), err)
	}
	st := ExitStatus{Code: out.StatusCode}
	if out.Error != nil {
		st.Error = out.Error.Message
	}
	return st, nil
}
