package docker

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"
)

// DefaultHost is where the daemon listens unless DOCKER_HOST or a docker
// context says otherwise.
const DefaultHost = "unix:///var/run/docker.sock"

// dialTimeout bounds connecting to the daemon, so an unreachable daemon is
// reported within seconds rather than after the kernel's TCP timeout.
const dialTimeout = 2 * time.Second

// Client talks to one Docker daemon (or Podman's Docker-compatible API). It
// is safe for concurrent use. It negotiates the Engine API version with the
// daemon on its first request (see Negotiate).
type Client struct {
	host    string // as the user wrote it, for messages
	hint    string // said when the daemon cannot be reached
	baseURL string
	http    *http.Client

	mu     sync.Mutex
	engine *Engine // set once negotiated
}

// FromEnv is FromGetenv of the process environment, for a program or a
// test that is given no environment of its own.
func FromEnv() (*Client, error) { return FromGetenv(os.Getenv) }

// FromGetenv returns a client for the daemon the docker CLI would use with
// the environment getenv reads: DOCKER_HOST, else the current docker
// context, else DefaultHost (see ResolveEndpoint). A nil getenv reads the
// process environment.
func FromGetenv(getenv Getenv) (*Client, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	ep, err := ResolveEndpoint(getenv)
	if err != nil {
		return nil, err
	}
	return NewClientFor(ep), nil
}

// NewClient returns a client for the daemon at host: unix:///path/to/socket
// or tcp://host:port (plain TCP). An empty host means DefaultHost.
func NewClient(host string) (*Client, error) {
	if host == "" {
		host = DefaultHost
	}
	ep, err := parseEndpoint(host, "DOCKER_HOST")
	if err != nil {
		return nil, err
	}
	return NewClientFor(ep), nil
}

// NewClientFor returns a client for a resolved endpoint (ResolveEndpoint).
func NewClientFor(ep Endpoint) *Client {
	dialer := &net.Dialer{Timeout: dialTimeout}
	to := ep.dialTo
	transport := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			conn, err := dialer.DialContext(ctx, to.network, to.address)
			if err != nil {
				return nil, &UnreachableError{Host: ep.Host, Err: err, Hint: ep.Hint}
			}
			return conn, nil
		},
		TLSClientConfig:     ep.TLS,
		TLSHandshakeTimeout: dialTimeout,
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     30 * time.Second,
		DisableCompression:  true,
	}
	return &Client{host: ep.Host, hint: ep.Hint, baseURL: to.baseURL, http: &http.Client{Transport: transport}}
}

// Host is the daemon address this client talks to, e.g. unix:///var/run/docker.sock.
func (c *Client) Host() string { return c.host }

// do sends one request to the versioned API, at the version negotiated
// with the daemon, and returns the response when its status is below 400;
// otherwise it returns an *Error with the daemon's message. A request the
// daemon refuses for its API version (an engine upgraded under a running
// boxtax) makes the client negotiate again; one without a body is then
// sent once more. The caller closes the response body.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body io.Reader, header http.Header) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		e, err := c.Negotiate(ctx)
		if err != nil {
			return nil, err
		}
		resp, err := c.send(ctx, method, "/v"+e.APIVersion+path, query, body, header)
		var daemonErr *Error
		if !errors.As(err, &daemonErr) || !daemonErr.versionRefused() {
			return resp, err
		}
		c.forget()
		if body != nil || attempt > 0 {
			return nil, err
		}
	}
}

// send sends one request to the path as given (versioned or not).
func (c *Client) send(ctx context.Context, method, path string, query url.Values, body io.Reader, header http.Header) (*http.Response, error) {
	u := c.baseURL + path
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
		return nil, c.transportError(method, path, err)
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

// transportError says what to do about a request that got no answer.
func (c *Client) transportError(method, path string, err error) error {
	var op *net.OpError
	remoteAlert := errors.As(err, &op) && op.Op == "remote error" // the daemon's TLS alert
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var record tls.RecordHeaderError
	var certErr *tls.CertificateVerificationError
	switch {
	case remoteAlert, errors.As(err, &unknownCA), errors.As(err, &hostname), errors.As(err, &certErr):
		return fmt.Errorf("TLS with the Docker daemon at %s failed: check ca.pem, cert.pem and key.pem in DOCKER_CERT_PATH "+
			"(or the docker context's tls directory): %w", c.host, err)
	case errors.As(err, &record):
		return fmt.Errorf("the Docker daemon at %s does not speak TLS: unset DOCKER_TLS_VERIFY and DOCKER_CERT_PATH: %w", c.host, err)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("the Docker daemon at %s closed the connection without an answer: "+
			"if it uses TLS, set DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH: %w", c.host, err)
	}
	return fmt.Errorf("docker %s %s at %s: %w", method, path, c.host, err)
}
