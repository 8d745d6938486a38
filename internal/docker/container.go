package docker

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// ContainerConfig says what container to create. Containers made here never
// have a TTY or stdin, are never privileged, and are never removed by the
// daemon on exit: the caller reads the exit state, then removes them.
type ContainerConfig struct {
	Name         string              // optional; the daemon picks one when empty
	Image        string              // name:tag or id
	Cmd          []string            // arguments after the image's entrypoint
	Entrypoint   []string            // replaces the image's entrypoint when set
	Env          []string            // KEY=value
	User         string              // replaces the image's USER when set, e.g. "0"
	Labels       map[string]string   // container labels
	ExposedPorts map[string]struct{} // e.g. "1883/tcp"
	HostConfig   HostConfig
}

// HostConfig holds the settings of a container that concern the host:
// network, CPUs, capabilities, limits. Field names follow the Engine API.
type HostConfig struct {
	NetworkMode  string                   `json:"NetworkMode,omitempty"` // bridge, host, none, container:<id>
	CpusetCpus   string                   `json:"CpusetCpus,omitempty"`  // e.g. "0-1"
	CapAdd       []string                 `json:"CapAdd,omitempty"`      // e.g. SYS_NICE
	CapDrop      []string                 `json:"CapDrop,omitempty"`
	Ulimits      []Ulimit                 `json:"Ulimits,omitempty"`
	PortBindings map[string][]PortBinding `json:"PortBindings,omitempty"` // "1883/tcp" -> host ports
	MemoryBytes  int64                    `json:"Memory,omitempty"`       // memory limit; 0 means none
	SecurityOpt  []string                 `json:"SecurityOpt,omitempty"`  // e.g. seccomp=unconfined
	Binds        []string                 `json:"Binds,omitempty"`        // host-path:container-path[:ro]
	// CPURealtimeRuntime is the cgroup's real-time budget in µs per period
	// (cpu.rt_runtime_us), for real-time threads on CONFIG_RT_GROUP_SCHED kernels.
	CPURealtimeRuntime int64   `json:"CpuRealtimeRuntime,omitempty"`
	NanoCPUs           int64   `json:"NanoCpus,omitempty"`   // CPU quota in 10^-9 CPUs (docker run --cpus)
	Runtime            string  `json:"Runtime,omitempty"`    // OCI runtime by the engine's name for it, e.g. runc, crun
	UsernsMode         string  `json:"UsernsMode,omitempty"` // user namespace: host, or Podman's private, auto, keep-id
	Mounts             []Mount `json:"Mounts,omitempty"`     // bind, volume and tmpfs mounts
}

// Mount is a filesystem mounted in a container (docker run --mount).
type Mount struct {
	Type     string `json:"Type"`             // bind, volume or tmpfs
	Source   string `json:"Source,omitempty"` // the host path (bind) or volume name; empty: an anonymous volume
	Target   string `json:"Target"`           // where in the container
	ReadOnly bool   `json:"ReadOnly,omitempty"`
}

// Ulimit is a resource limit set in the container, e.g. rtprio or memlock.
type Ulimit struct {
	Name string `json:"Name"`
	Soft int64  `json:"Soft"`
	Hard int64  `json:"Hard"`
}

// PortBinding publishes a container port on the host.
type PortBinding struct {
	HostIP   string `json:"HostIp,omitempty"`
	HostPort string `json:"HostPort"`
}

// Created is the daemon's answer to ContainerCreate.
type Created struct {
	ID       string   `json:"Id"`
	Warnings []string `json:"Warnings"` // e.g. a limit the kernel cannot enforce
}

// createRequest is the body of POST /containers/create.
type createRequest struct {
	Image        string              `json:"Image"`
	Cmd          []string            `json:"Cmd,omitempty"`
	Entrypoint   []string            `json:"Entrypoint,omitempty"`
	Env          []string            `json:"Env,omitempty"`
	User         string              `json:"User,omitempty"`
	Labels       map[string]string   `json:"Labels,omitempty"`
	ExposedPorts map[string]struct{} `json:"ExposedPorts,omitempty"`
	AttachStdout bool                `json:"AttachStdout"`
	AttachStderr bool                `json:"AttachStderr"`
	Tty          bool                `json:"Tty"`
	OpenStdin    bool                `json:"OpenStdin"`
	HostConfig   hostConfigRequest   `json:"HostConfig"`
}

type hostConfigRequest struct {
	HostConfig
	AutoRemove bool `json:"AutoRemove"`
	Privileged bool `json:"Privileged"`
}

// ContainerCreate creates a container and returns its id and the daemon's warnings.
func (c *Client) ContainerCreate(ctx context.Context, cfg ContainerConfig) (Created, error) {
	var q url.Values
	if cfg.Name != "" {
		q = url.Values{"name": {cfg.Name}}
	}
	req := createRequest{
		Image: cfg.Image, Cmd: cfg.Cmd, Entrypoint: cfg.Entrypoint, Env: cfg.Env, User: cfg.User, Labels: cfg.Labels, ExposedPorts: cfg.ExposedPorts,
		AttachStdout: true, AttachStderr: true,
		HostConfig: hostConfigRequest{HostConfig: cfg.HostConfig},
	}
	var out Created
	if err := c.sendJSON(ctx, http.MethodPost, "/containers/create", q, req, &out); err != nil {
		return Created{}, fmt.Errorf("creating a container from %s: %w", cfg.Image, err)
	}
	return out, nil
}

// ContainerStart starts a created container. Attach to it first (ContainerAttach)
// to get all of its output.
func (c *Client) ContainerStart(ctx context.Context, id string) error {
	if err := c.sendJSON(ctx, http.MethodPost, "/containers/"+url.PathEscape(id)+"/start", nil, nil, nil); err != nil {
		return fmt.Errorf("starting container %s: %w", short(id), err)
	}
	return nil
}

// ContainerKill sends a signal (default SIGKILL) to a running container.
// A container that is not running gives an error for which IsConflict is true.
func (c *Client) ContainerKill(ctx context.Context, id, signal string) error {
	if signal == "" {
		signal = "KILL"
	}
	q := url.Values{"signal": {signal}}
	if err := c.sendJSON(ctx, http.MethodPost, "/containers/"+url.PathEscape(id)+"/kill", q, nil, nil); err != nil {
		return fmt.Errorf("killing container %s: %w", short(id), err)
	}
	return nil
}

// ContainerRemove removes a container and its anonymous volumes; with force
// it kills the container first if it runs.
func (c *Client) ContainerRemove(ctx context.Context, id string, force bool) error {
	q := url.Values{"v": {"1"}}
	if force {
		q.Set("force", "1")
	}
	if err := c.sendJSON(ctx, http.MethodDelete, "/containers/"+url.PathEscape(id), q, nil, nil); err != nil {
		return fmt.Errorf("removing container %s: %w", short(id), err)
	}
	return nil
}

// short is the 12-character form of an id that docker ps shows.
func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
