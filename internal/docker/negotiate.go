package docker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The Engine API versions this client speaks. Every request boxtax sends and
// every field it reads was checked against the Engine API version history
// for each version in between (docs/design/005-engines.md lists what
// changed and why none of it matters here):
//
//   - 1.41 (Docker 20.10) is the oldest: /info's CgroupVersion, which the
//     host facts record, came with it.
//   - 1.52 (Docker 29) is the newest checked. A newer daemon that still
//     serves 1.52 is spoken to at 1.52.
const (
	MinAPIVersion = "1.41"
	MaxAPIVersion = "1.52"
)

// Engine is what the daemon says it is, and the Engine API version this
// client speaks with it.
type Engine struct {
	Name          string // "Docker Engine" or "Podman Engine"; another product's own name
	Version       string // the engine's version, e.g. 29.0.0 or 4.3.1
	Platform      string // the daemon's Platform.Name, e.g. "Docker Engine - Community"; may be empty
	Os, Arch      string // the daemon's GOOS and GOARCH
	KernelVersion string
	MaxAPIVersion string // the newest Engine API version the daemon serves
	MinAPIVersion string // the oldest; empty when the daemon does not say
	APIVersion    string // the version negotiated: every request uses it
}

// String names the engine and its version, e.g. "Docker Engine 29.0.0".
func (e Engine) String() string { return strings.TrimSpace(e.Name + " " + e.Version) }

// versionAnswer is the daemon's answer to GET /version.
type versionAnswer struct {
	Platform struct {
		Name string `json:"Name"`
	} `json:"Platform"`
	Components []struct {
		Name    string `json:"Name"`
		Version string `json:"Version"`
	} `json:"Components"`
	Version       string `json:"Version"`
	APIVersion    string `json:"ApiVersion"`
	MinAPIVersion string `json:"MinAPIVersion"`
	Os            string `json:"Os"`
	Arch          string `json:"Arch"`
	KernelVersion string `json:"KernelVersion"`
}

// Negotiate picks the Engine API version to speak with the daemon, as the
// docker CLI does: the newest version in both its range and boxtax's. It
// reads the daemon's newest version from the unversioned GET /_ping
// (Api-Version), which every engine answers at once and at any version;
// only a daemon newer than boxtax is asked its oldest (GET /version). It
// asks once per client; concurrent callers wait for the one answer, and a
// failure (a daemon not yet up) is asked again next time. No common version
// gives a *VersionError naming both ranges. The Engine returned holds the
// API versions; Engine adds the engine's name and version.
func (c *Client) Negotiate(ctx context.Context) (Engine, error) { return c.negotiate(ctx, "") }

// negotiateTimeout bounds one handshake, so that callers waiting for it
// (whatever their own deadlines) are not held by a daemon that never answers.
const negotiateTimeout = 10 * time.Second

// negotiate is Negotiate with the Api-Version of a ping just made, if any.
func (c *Client) negotiate(ctx context.Context, pinged string) (Engine, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.engine != nil {
		return *c.engine, nil
	}
	ctx, cancel := context.WithTimeout(ctx, negotiateTimeout)
	defer cancel()
	if pinged == "" {
		var err error
		if pinged, err = c.ping(ctx); err != nil {
			return Engine{}, err
		}
	}
	e := Engine{MaxAPIVersion: pinged}
	var err error
	if apiLess(MaxAPIVersion, e.MaxAPIVersion) || apiLess(e.MaxAPIVersion, MinAPIVersion) {
		// Newer than boxtax: is 1.52 still served? Older: name it in the
		// error. Without an answer: name no engine, assume no minimum.
		if v, err := c.versionAnswer(ctx, ""); err == nil {
			named := engineOf(v)
			named.MaxAPIVersion = e.MaxAPIVersion
			e = named
		} else {
			e.Name = "the daemon"
		}
	}
	if e.APIVersion, err = chooseAPIVersion(e.MinAPIVersion, e.MaxAPIVersion); err != nil {
		return Engine{}, &VersionError{Host: c.host, Engine: e}
	}
	c.engine = &e
	return e, nil
}

// Engine negotiates (Negotiate) and says which engine answers: its name
// and version from GET /version (which Podman answers slowly: it asks its
// runtime for versions). It asks once per client.
func (c *Client) Engine(ctx context.Context) (Engine, error) {
	e, err := c.Negotiate(ctx)
	if err != nil || e.Name != "" {
		return e, err
	}
	v, err := c.versionAnswer(ctx, e.APIVersion)
	if err != nil {
		return Engine{}, err
	}
	named := engineOf(v)
	named.APIVersion, named.MaxAPIVersion = e.APIVersion, e.MaxAPIVersion
	c.mu.Lock()
	if c.engine != nil && c.engine.APIVersion == e.APIVersion {
		c.engine = &named
	}
	c.mu.Unlock()
	return named, nil
}

// ping sends the unversioned GET /_ping and returns its Api-Version header:
// the newest API version the daemon serves.
func (c *Client) ping(ctx context.Context) (string, error) {
	resp, err := c.send(ctx, http.MethodGet, "/_ping", nil, nil, nil)
	if err != nil {
		var daemonErr *Error
		if errors.As(err, &daemonErr) {
			return "", fmt.Errorf("something answers at %s but not as a Docker daemon does: check DOCKER_HOST: %w", c.host, err)
		}
		return "", err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	v := resp.Header.Get("Api-Version")
	if v == "" {
		return "", fmt.Errorf("something answers at %s but not as a Docker daemon does (no Api-Version header): check DOCKER_HOST", c.host)
	}
	if _, err := parseAPIVersion(v); err != nil {
		return "", fmt.Errorf("something answers at %s but not as a Docker daemon does (Api-Version %q): check DOCKER_HOST", c.host, v)
	}
	return v, nil
}

// versionAnswer asks GET /version at the API version given, or unversioned
// (at the daemon's own newest) when none is agreed yet.
func (c *Client) versionAnswer(ctx context.Context, apiVersion string) (versionAnswer, error) {
	path := "/version"
	if apiVersion != "" {
		path = "/v" + apiVersion + path
	}
	resp, err := c.send(ctx, http.MethodGet, path, nil, nil, nil)
	if err != nil {
		return versionAnswer{}, err
	}
	defer resp.Body.Close()
	var v versionAnswer
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&v); err != nil {
		return versionAnswer{}, fmt.Errorf("something answers at %s but not as a Docker daemon does (its /version is not JSON: %v): check DOCKER_HOST", c.host, err)
	}
	if v.APIVersion == "" {
		v.APIVersion = resp.Header.Get("Api-Version")
	}
	return v, nil
}

// forget drops the negotiated version, so that the next request asks again.
func (c *Client) forget() {
	c.mu.Lock()
	c.engine = nil
	c.mu.Unlock()
}

// engineOf reads the engine's name and versions from /version's answer:
// Podman names its component "Podman Engine", Docker "Engine".
func engineOf(v versionAnswer) Engine {
	e := Engine{Version: v.Version, Platform: v.Platform.Name, Os: v.Os, Arch: v.Arch, KernelVersion: v.KernelVersion,
		MaxAPIVersion: v.APIVersion, MinAPIVersion: v.MinAPIVersion}
	for _, comp := range v.Components {
		switch comp.Name {
		case "Podman Engine":
			e.Name, e.Version = comp.Name, comp.Version
		case "Engine":
			if e.Name == "" {
				e.Name, e.Version = "Docker Engine", comp.Version
			}
		}
	}
	if e.Name == "" {
		e.Name = v.Platform.Name
	}
	if e.Name == "" {
		e.Name = "Docker Engine"
	}
	return e
}

// chooseAPIVersion is the newest version in both [MinAPIVersion,
// MaxAPIVersion] and [daemonMin, daemonMax]; daemonMin may be empty.
func chooseAPIVersion(daemonMin, daemonMax string) (string, error) {
	choice := MaxAPIVersion
	if apiLess(daemonMax, choice) {
		choice = daemonMax
	}
	if apiLess(choice, MinAPIVersion) {
		return "", fmt.Errorf("the daemon's newest API version %s is older than %s", daemonMax, MinAPIVersion)
	}
	if daemonMin != "" && apiLess(choice, daemonMin) {
		return "", fmt.Errorf("the daemon's oldest API version %s is newer than %s", daemonMin, MaxAPIVersion)
	}
	return choice, nil
}

// apiVersion is an Engine API version, 1.44 = {1, 44}.
type apiVersion struct{ major, minor int }

func parseAPIVersion(s string) (apiVersion, error) {
	maj, min, ok := strings.Cut(s, ".")
	a, err1 := strconv.Atoi(maj)
	b, err2 := strconv.Atoi(min)
	if !ok || err1 != nil || err2 != nil || a < 0 || b < 0 {
		return apiVersion{}, fmt.Errorf("%q is not an API version such as 1.44", s)
	}
	return apiVersion{a, b}, nil
}

// apiLess reports whether version a is older than b; versions that do not
// parse compare as 0.0.
func apiLess(a, b string) bool {
	va, _ := parseAPIVersion(a)
	vb, _ := parseAPIVersion(b)
	return va.major < vb.major || va.major == vb.major && va.minor < vb.minor
}

// VersionError says that the daemon and boxtax share no Engine API version.
type VersionError struct {
	Host   string
	Engine Engine // what the daemon said about itself
}

// TooOld reports whether the daemon is older than boxtax can speak to
// (rather than newer).
func (e *VersionError) TooOld() bool { return apiLess(e.Engine.MaxAPIVersion, MinAPIVersion) }

// Error names both ranges and what to do.
func (e *VersionError) Error() string {
	daemon := e.Engine.MaxAPIVersion
	if e.Engine.MinAPIVersion != "" {
		daemon = e.Engine.MinAPIVersion + " to " + e.Engine.MaxAPIVersion
	}
	head := fmt.Sprintf("%s at %s serves Engine API %s, and boxtax speaks %s to %s: no version in common",
		e.Engine, e.Host, daemon, MinAPIVersion, MaxAPIVersion)
	if e.TooOld() {
		return head + ": the engine is too old; upgrade it (Docker Engine 20.10 or newer, Podman 4 or newer), " +
			"set DOCKER_HOST to a newer one, or use --envs native"
	}
	return head + ": the engine is newer than this boxtax; use a newer boxtax, " +
		"let the engine accept API " + MaxAPIVersion + " (dockerd's DOCKER_MIN_API_VERSION=" + MaxAPIVersion + "), or use --envs native"
}
