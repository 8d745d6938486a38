package docker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// APIVersion is the Engine API version every request is pinned to. Engines
// 20.10 and later serve it.
const APIVersion = "1.41"

// DefaultHost is where the daemon listens unless DOCKER_HOST says otherwise.
const DefaultHost = "unix:///var/run/docker.sock"

// dialTimeout bounds connecting to the daemon, so an unreachable daemon is
// reported within seconds rather than after the kernel's TCP timeout.
const dialTimeout = 2 * time.Second

// Client talks to one Docker daemon. It is safe for concurrent use.
type Client struct {
	host    string // as the user wrote it, for messages
	baseURL string
	http    *http.Client
}

// FromEnv returns a client for the daemon named by the DOCKER_HOST
// environment variable, or for DefaultHost when it is unset.
func FromEnv() (*Client, error) {
	return NewClient(os.Getenv("DOCKER_HOST"))
}

// NewClient returns a client for the daemon at host: unix:///path/to/socket
// or tcp://host:port (plain TCP, no TLS). An empty host means DefaultHost.
func NewClient(host string) (*Client, error) {
	if host == "" {
		host = DefaultHost
	}
	ep, err := parseHost(host)
	if err != nil {
		return nil, err
	}
	dialer := &net.Dialer{Timeout: dialTimeout}
	transport := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			conn, err := dialer.DialContext(ctx, ep.network, ep.address)
			if err != nil {
				return nil, &UnreachableError{Host: host, Err: err}
			}
			return conn, nil
		},
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     30 * time.Second,
		DisableCompression:  true,
	}
	return &Client{host: host, baseURL: ep.baseURL, http: &http.Client{Transport: transport}}, nil
}

// Host is the daemon address this client talks to, e.g. unix:///var/run/docker.sock.
func (c *Client) Host() string { return c.host }

// endpoint is where to dial and what URL to put in requests.
type endpoint struct {
	network, address, baseURL string
}

// parseHost understands the DOCKER_HOST forms boxtax supports.
func parseHost(host string) (endpoint, error) {
	supported := "use unix:///path/to/docker.sock or tcp://host:port (TLS is not supported)"
	scheme, rest, ok := strings.Cut(host, "://")
	if !ok {
		return endpoint{}, fmt.Errorf("DOCKER_HOST %q has no scheme: %s", host, supported)
	}
	switch scheme {
	case "unix":
		if rest == "" || !strings.HasPrefix(rest, "/") {
			return endpoint{}, fmt.Errorf("DOCKER_HOST %q needs an absolute socket path: %s", host, supported)
		}
		// The host part of the URL is a placeholder: the dialer ignores it.
		return endpoint{network: "unix", address: rest, baseURL: "http://docker"}, nil
	case "tcp":
		addr := strings.TrimSuffix(rest, "/")
		if addr == "" || strings.Contains(addr, "/") {
			return endpoint{}, fmt.Errorf("DOCKER_HOST %q is not host:port: %s", host, supported)
		}
		if _, _, err := net.SplitHostPort(addr); err != nil {
			addr = net.JoinHostPort(addr, "2375") // the daemon's plain-TCP port
		}
		return endpoint{network: "tcp", address: addr, baseURL: "http://" + addr}, nil
	default:
		return endpoint{}, fmt.Errorf("DOCKER_HOST scheme %q is not supported: %s", scheme, supported)
	}
}

// do sends one request to the versioned API and returns the response when
// its status is below 400; otherwise it returns an *Error with the daemon's
// message. The caller closes the response body.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body io.Reader, header http.Header) (*http.Response, error) {
	u := c.baseURL + "/v" + APIVersion + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return nil, fmt.Errorf("docker request %s %s: %w", method, path, err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := c.http.Do(req)
	if err != nil {
		var unreachable *UnreachableError
		if errors.As(err, &unreachable) {
			return nil, unreachable
		}
		return nil, fmt.Errorf("docker %s %s: %w", method, path, err)
	}
	if resp.StatusCode >= 400 {
		defer resp.Body.Close()
		return nil, readError(method, path, resp)
	}
	return resp, nil
}

// getJSON sends a GET and decodes the JSON answer into out.
func (c *Client) getJSON(ctx context.Context, path string, query url.Values, out any) error {
	return c.sendJSON(ctx, http.MethodGet, path, query, nil, out)
}

// sendJSON sends in (if not nil) as JSON and decodes the answer into out (if not nil).
func (c *Client) sendJSON(ctx context.Context, method, path string, query url.Values, in, out any) error {
	var body io.Reader
	header := http.Header{}
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("docker %s %s: encoding request: %w", method, path, err)
		}
		body = bytes.NewReader(b)
		header.Set("Content-Type", "application/json")
	}
	resp, err := c.do(ctx, method, path, query, body, header)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if out == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("docker %s %s: decoding answer: %w", method, path, err)
	}
	return nil
}
