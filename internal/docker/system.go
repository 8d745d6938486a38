package docker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// pingTimeout bounds Ping: a daemon that does not answer this fast is as
// good as absent for a benchmark that is about to start.
const pingTimeout = 3 * time.Second

// Version is what the daemon says about its build (GET /version).
type Version struct {
	Version       string `json:"Version"` // engine version, e.g. 20.10.24
	APIVersion    string `json:"ApiVersion"`
	MinAPIVersion string `json:"MinAPIVersion"`
	GoVersion     string `json:"GoVersion"`
	Os            string `json:"Os"`
	Arch          string `json:"Arch"` // GOARCH of the daemon, e.g. amd64, arm64, arm
	KernelVersion string `json:"KernelVersion"`
}

// Info is what the daemon says about the machine and its configuration
// (GET /info): the facts a study records about the container runtime.
type Info struct {
	ServerVersion   string `json:"ServerVersion"`
	Driver          string `json:"Driver"` // storage driver, e.g. overlay2, fuse-overlayfs
	CgroupVersion   string `json:"CgroupVersion"`
	CgroupDriver    string `json:"CgroupDriver"`
	KernelVersion   string `json:"KernelVersion"`
	OperatingSystem string `json:"OperatingSystem"`
	Architecture    string `json:"Architecture"` // uname -m, e.g. x86_64, aarch64
	NCPU            int    `json:"NCPU"`
	MemTotalBytes   int64  `json:"MemTotal"`
	LoggingDriver   string `json:"LoggingDriver"`
	// DefaultRuntime is the OCI runtime containers get (runc, crun).
	DefaultRuntime string `json:"DefaultRuntime"`
	// Runtimes are the OCI runtimes the engine knows, by name.
	Runtimes map[string]json.RawMessage `json:"Runtimes"`
	// SecurityOptions lists seccomp, apparmor, selinux, userns and, on
	// rootless engines, "name=rootless".
	SecurityOptions []string `json:"SecurityOptions"`
}

// Rootless tells whether the engine runs without root (its security
// options say name=rootless).
func (i Info) Rootless() bool {
	for _, o := range i.SecurityOptions {
		if o == "name=rootless" || strings.HasPrefix(o, "name=rootless,") {
			return true
		}
	}
	return false
}

// Ping checks within a few seconds that the daemon answers as a Docker
// daemon does (the unversioned GET /_ping, which answers at any API version,
// with an Api-Version header) and negotiates the API version with it. When
// it cannot be reached the error is an *UnreachableError saying what to
// do; when it shares no API version with boxtax, a *VersionError.
func (c *Client) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	pinged, err := c.ping(ctx)
	if err == nil {
		_, err = c.negotiate(ctx, pinged)
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
			return &UnreachableError{Host: c.host, Hint: c.hint, Err: fmt.Errorf("no answer within %v: %w", pingTimeout, err)}
		}
		return err
	}
	return nil
}

// Version returns the daemon's version and API versions.
func (c *Client) Version(ctx context.Context) (Version, error) {
	var v Version
	err := c.getJSON(ctx, "/version", nil, &v)
	return v, err
}

// Info returns the daemon's configuration and the machine's facts.
func (c *Client) Info(ctx context.Context) (Info, error) {
	var i Info
	err := c.getJSON(ctx, "/info", nil, &i)
	return i, err
}
