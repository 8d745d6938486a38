package docker

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/errtest"
)

func TestParseHost(t *testing.T) {
	tests := []struct {
		host        string
		wantNetwork string
		wantAddress string
		wantBaseURL string
		wantErr     string
	}{
		{host: "unix:///var/run/docker.sock", wantNetwork: "unix", wantAddress: "/var/run/docker.sock", wantBaseURL: "http://docker"},
		{host: "unix:///run/user/1000/docker.sock", wantNetwork: "unix", wantAddress: "/run/user/1000/docker.sock", wantBaseURL: "http://docker"},
		{host: "tcp://10.0.0.2:2375", wantNetwork: "tcp", wantAddress: "10.0.0.2:2375", wantBaseURL: "http://10.0.0.2:2375"},
		{host: "tcp://pi.local:2375/", wantNetwork: "tcp", wantAddress: "pi.local:2375", wantBaseURL: "http://pi.local:2375"},
		{host: "tcp://pi.local", wantNetwork: "tcp", wantAddress: "pi.local:2375", wantBaseURL: "http://pi.local:2375"},
		{host: "tcp://[::1]:2376", wantNetwork: "tcp", wantAddress: "[::1]:2376", wantBaseURL: "http://[::1]:2376"},
		{host: "unix://", wantErr: "needs an absolute socket path"},
		{host: "unix://docker.sock", wantErr: "needs an absolute socket path"},
		{host: "tcp://", wantErr: "is not host:port"},
		{host: "tcp://host:2375/path", wantErr: "is not host:port"},
		{host: "ssh://me@pi", wantErr: `scheme "ssh" is not supported`},
		{host: "npipe:////./pipe/docker_engine", wantErr: `scheme "npipe" is not supported`},
		{host: "/var/run/docker.sock", wantErr: "has no scheme"},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			ep, err := parseHost(tt.host)
			if errtest.Want(t, err, tt.wantErr) {
				if !strings.Contains(err.Error(), "unix:///path/to/docker.sock, tcp://host:port") {
					t.Errorf("error %q does not say which forms work", err)
				}
				return
			}
			if ep.network != tt.wantNetwork || ep.address != tt.wantAddress || ep.baseURL != tt.wantBaseURL {
				t.Errorf("got %+v, want network %s address %s base %s", ep, tt.wantNetwork, tt.wantAddress, tt.wantBaseURL)
			}
		})
	}
}

func TestFromEnvDefaultsToTheStandardSocket(t *testing.T) {
	t.Setenv("DOCKER_HOST", "")
	t.Setenv("DOCKER_CONTEXT", "")
	t.Setenv("DOCKER_CONFIG", "")
	t.Setenv("HOME", t.TempDir())
	c, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if c.Host() != DefaultHost {
		t.Errorf("host = %s, want %s", c.Host(), DefaultHost)
	}
}

func TestFromEnvRejectsUnsupportedScheme(t *testing.T) {
	t.Setenv("DOCKER_HOST", "https://example.com:2376")
	if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), `scheme "https" is not supported`) {
		t.Fatalf("error = %v, want unsupported scheme", err)
	}
}

// TestFromGetenvReadsOnlyTheGivenEnvironment: the daemon is the one the
// caller's environment names, whatever the process's says.
func TestFromGetenvReadsOnlyTheGivenEnvironment(t *testing.T) {
	t.Setenv("DOCKER_HOST", "unix:///process/docker.sock")
	given := map[string]string{"DOCKER_HOST": "tcp://127.0.0.1:2375", "HOME": t.TempDir()}
	c, err := FromGetenv(func(k string) string { return given[k] })
	if err != nil {
		t.Fatal(err)
	}
	if c.Host() != "tcp://127.0.0.1:2375" {
		t.Errorf("host = %s, want the given tcp://127.0.0.1:2375", c.Host())
	}
	if c, err := FromGetenv(nil); err != nil || c.Host() != "unix:///process/docker.sock" {
		t.Errorf("nil getenv: host %v, %v; want the process's unix:///process/docker.sock", c, err)
	}
}
