package docker

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
)

// supportedHosts names the daemon addresses boxtax understands, for errors.
const supportedHosts = "use unix:///path/to/docker.sock, tcp://host:port (plain), " +
	"or tcp://host:port with DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH (TLS)"

// sshAdvice says how to reach a daemon over ssh without ssh:// support.
const sshAdvice = "; for a daemon reached over ssh, forward its socket " +
	"(ssh -NL /tmp/docker.sock:/var/run/docker.sock HOST) and set DOCKER_HOST=unix:///tmp/docker.sock"

// Endpoint says where a daemon listens and how to talk to it.
type Endpoint struct {
	Host   string      // unix:///var/run/docker.sock, tcp://host:2376, ...
	From   string      // where Host came from: DOCKER_HOST, docker context NAME, or default
	TLS    *tls.Config // nil: plain HTTP
	Hint   string      // said when the daemon cannot be reached, e.g. where a rootless one listens
	dialTo endpoint
}

// Getenv reads one environment variable, as os.Getenv does.
type Getenv func(string) string

// ResolveEndpoint finds the daemon as the docker CLI does:
//  1. DOCKER_HOST, with TLS when DOCKER_TLS_VERIFY, DOCKER_CERT_PATH or
//     DOCKER_TLS is set (certificates ca.pem, cert.pem, key.pem from
//     DOCKER_CERT_PATH, else the docker configuration directory); the
//     daemon's certificate is checked only with DOCKER_TLS_VERIFY;
//  2. else the context named by DOCKER_CONTEXT, else the currentContext of
//     config.json in the configuration directory (DOCKER_CONFIG, default
//     ~/.docker); its meta.json names the host and its tls/ directory the
//     certificates;
//  3. else DefaultHost. Like the docker CLI, boxtax does not look for a
//     rootless daemon's socket by itself; when DefaultHost is missing and
//     $XDG_RUNTIME_DIR/docker.sock exists, the unreachable error names it.
func ResolveEndpoint(getenv Getenv) (Endpoint, error) {
	cfgDir := configDir(getenv)
	if host := getenv("DOCKER_HOST"); host != "" {
		ep, err := parseEndpoint(host, "DOCKER_HOST")
		if err != nil {
			return Endpoint{}, err
		}
		certPath := getenv("DOCKER_CERT_PATH")
		verify := getenv("DOCKER_TLS_VERIFY") != ""
		if verify || certPath != "" || getenv("DOCKER_TLS") != "" {
			if certPath == "" {
				certPath = cfgDir
			}
			if err := ep.useTLS(certPath, !verify, "DOCKER_CERT_PATH"); err != nil {
				return Endpoint{}, err
			}
		}
		return ep, nil
	}
	name, from := getenv("DOCKER_CONTEXT"), "DOCKER_CONTEXT"
	if name == "" {
		var err error
		if name, err = currentContext(cfgDir); err != nil {
			return Endpoint{}, err
		}
		from = filepath.Join(cfgDir, "config.json")
	}
	if name == "" || name == "default" {
		ep, err := parseEndpoint(defaultHost, "default")
		if err != nil {
			return Endpoint{}, err
		}
		if _, statErr := os.Stat(ep.dialTo.address); errors.Is(statErr, fs.ErrNotExist) {
			if dir := getenv("XDG_RUNTIME_DIR"); dir != "" {
				if _, err := os.Stat(filepath.Join(dir, "docker.sock")); err == nil {
					sock := "unix://" + filepath.Join(dir, "docker.sock")
					ep.Hint = "a rootless Docker may listen at " + sock + ": set DOCKER_HOST=" + sock +
						" or run docker context use rootless"
				}
			}
		}
		return ep, nil
	}
	return contextEndpoint(cfgDir, name, from)
}

// defaultHost is DefaultHost; tests point it elsewhere.
var defaultHost = DefaultHost

// configDir is the docker CLI's configuration directory.
func configDir(getenv Getenv) string {
	if d := getenv("DOCKER_CONFIG"); d != "" {
		return d
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".docker")
}

// currentContext reads config.json's currentContext; no file means none.
func currentContext(cfgDir string) (string, error) {
	path := filepath.Join(cfgDir, "config.json")
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the docker CLI configuration %s: %w", path, err)
	}
	var cfg struct {
		CurrentContext string `json:"currentContext"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		return "", fmt.Errorf("reading the docker CLI configuration %s: %w: fix the file or set DOCKER_HOST", path, err)
	}
	return cfg.CurrentContext, nil
}

// contextEndpoint reads the docker context's meta.json and TLS material.
func contextEndpoint(cfgDir, name, from string) (Endpoint, error) {
	sum := sha256.Sum256([]byte(name))
	id := hex.EncodeToString(sum[:])
	metaPath := filepath.Join(cfgDir, "contexts", "meta", id, "meta.json")
	b, err := os.ReadFile(metaPath)
	if errors.Is(err, fs.ErrNotExist) {
		return Endpoint{}, fmt.Errorf("docker context %q (named by %s) does not exist: there is no %s; "+
			"list contexts with docker context ls, or set DOCKER_HOST", name, from, metaPath)
	}
	if err != nil {
		return Endpoint{}, fmt.Errorf("reading docker context %q: %w", name, err)
	}
	var meta struct {
		Endpoints map[string]struct {
			Host          string `json:"Host"`
			SkipTLSVerify bool   `json:"SkipTLSVerify"`
		} `json:"Endpoints"`
	}
	if err := json.Unmarshal(b, &meta); err != nil {
		return Endpoint{}, fmt.Errorf("reading docker context %q from %s: %w", name, metaPath, err)
	}
	d, ok := meta.Endpoints["docker"]
	if !ok || d.Host == "" {
		return Endpoint{}, fmt.Errorf("docker context %q (%s) names no docker endpoint host: "+
			"recreate it with docker context create, or set DOCKER_HOST", name, metaPath)
	}
	ep, err := parseEndpoint(d.Host, "docker context "+name)
	if err != nil {
		return Endpoint{}, err
	}
	ep.Hint = "the address is docker context " + name + "'s (named by " + from + "); " +
		"DOCKER_HOST overrides it, docker context use default goes back to the local socket"
	tlsDir := filepath.Join(cfgDir, "contexts", "tls", id, "docker")
	if _, err := os.Stat(tlsDir); err == nil || d.SkipTLSVerify {
		if err := ep.useTLS(tlsDir, d.SkipTLSVerify, "docker context "+name); err != nil {
			return Endpoint{}, err
		}
	}
	return ep, nil
}

// parseEndpoint checks a host address and says how to dial it.
func parseEndpoint(host, from string) (Endpoint, error) {
	ep, err := parseHost(host)
	if err != nil {
		return Endpoint{}, fmt.Errorf("%s: %w", from, err)
	}
	return Endpoint{Host: host, From: from, dialTo: ep}, nil
}

// useTLS switches a tcp endpoint to TLS with the certificates in dir:
// ca.pem to check the daemon (unless skipVerify), cert.pem and key.pem to
// show who we are (when both exist). A port left out becomes 2376.
func (ep *Endpoint) useTLS(dir string, skipVerify bool, from string) error {
	if ep.dialTo.network != "tcp" {
		return nil // TLS settings do not apply to a unix socket, as with the docker CLI
	}
	host, _, err := net.SplitHostPort(ep.dialTo.address)
	if err != nil {
		return fmt.Errorf("%s: %w", ep.Host, err)
	}
	if ep.dialTo.defaultPort {
		ep.dialTo.address = net.JoinHostPort(host, "2376") // the daemon's TLS port
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: host, InsecureSkipVerify: skipVerify} //nolint:gosec // only when the user asks
	ca := filepath.Join(dir, "ca.pem")
	if !skipVerify {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return fmt.Errorf("TLS for %s (%s): reading the CA certificate: %w: put ca.pem, cert.pem and key.pem "+
				"in DOCKER_CERT_PATH (default ~/.docker)", ep.Host, from, err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return fmt.Errorf("TLS for %s (%s): %s holds no PEM certificate", ep.Host, from, ca)
		}
		cfg.RootCAs = pool
	}
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	_, certErr := os.Stat(certFile)
	_, keyErr := os.Stat(keyFile)
	if certErr == nil || keyErr == nil {
		pair, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return fmt.Errorf("TLS for %s (%s): loading the client certificate: %w", ep.Host, from, err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	ep.TLS = cfg
	ep.dialTo.baseURL = "https://" + ep.dialTo.address
	return nil
}

// endpoint is where to dial and what URL to put in requests.
type endpoint struct {
	network, address, baseURL string
	defaultPort               bool // tcp:// without a port
}

// parseHost understands the DOCKER_HOST forms boxtax supports.
func parseHost(host string) (endpoint, error) {
	scheme, rest, ok := strings.Cut(host, "://")
	if !ok {
		return endpoint{}, fmt.Errorf("%q has no scheme: %s", host, supportedHosts)
	}
	switch scheme {
	case "unix":
		if rest == "" || !strings.HasPrefix(rest, "/") {
			return endpoint{}, fmt.Errorf("%q needs an absolute socket path: %s", host, supportedHosts)
		}
		// The host part of the URL is a placeholder: the dialer ignores it.
		return endpoint{network: "unix", address: rest, baseURL: "http://docker"}, nil
	case "tcp":
		addr := strings.TrimSuffix(rest, "/")
		if addr == "" || strings.Contains(addr, "/") {
			return endpoint{}, fmt.Errorf("%q is not host:port: %s", host, supportedHosts)
		}
		defaultPort := false
		if _, _, err := net.SplitHostPort(addr); err != nil {
			addr = net.JoinHostPort(strings.Trim(addr, "[]"), "2375") // the daemon's plain-TCP port
			defaultPort = true
		}
		return endpoint{network: "tcp", address: addr, baseURL: "http://" + addr, defaultPort: defaultPort}, nil
	case "ssh":
		return endpoint{}, fmt.Errorf("%q: scheme %q is not supported: %s%s", host, scheme, supportedHosts, sshAdvice)
	default:
		return endpoint{}, fmt.Errorf("%q: scheme %q is not supported: %s", host, scheme, supportedHosts)
	}
}

// Address is where to dial the daemon: network "unix" or "tcp" and address.
func (ep Endpoint) Address() (network, address string) { return ep.dialTo.network, ep.dialTo.address }
