package docker

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/errtest"
)

// writeContext writes a docker context as docker context create does:
// meta.json under contexts/meta/<sha256 of the name>/.
func writeContext(t *testing.T, cfgDir, name, host string) {
	t.Helper()
	sum := sha256.Sum256([]byte(name))
	dir := filepath.Join(cfgDir, "contexts", "meta", hex.EncodeToString(sum[:]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	meta := `{"Name":"` + name + `","Metadata":{"Description":"test"},"Endpoints":{"docker":{"Host":"` + host + `","SkipTLSVerify":false}}}`
	if err := os.WriteFile(filepath.Join(dir, "meta.json"), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestResolveEndpoint(t *testing.T) {
	home := t.TempDir()
	cfg := filepath.Join(home, ".docker")
	writeContext(t, cfg, "pi", "tcp://10.0.0.7:2375")
	writeContext(t, cfg, "rootless", "unix:///run/user/1000/docker.sock")
	writeContext(t, cfg, "remote-ssh", "ssh://me@pi")
	if err := os.WriteFile(filepath.Join(cfg, "config.json"), []byte(`{"auths":{},"currentContext":"rootless"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	otherCfg := t.TempDir() // DOCKER_CONFIG elsewhere, no current context
	writeContext(t, otherCfg, "pi", "tcp://10.0.0.8:2375")
	emptyHome := t.TempDir()

	tests := []struct {
		name     string
		env      map[string]string
		wantHost string
		wantFrom string
		wantErr  string
	}{
		{name: "nothing set: the default socket", env: map[string]string{"HOME": emptyHome}, wantHost: DefaultHost, wantFrom: "default"},
		{name: "current context of config.json", env: map[string]string{"HOME": home}, wantHost: "unix:///run/user/1000/docker.sock", wantFrom: "docker context rootless"},
		{name: "DOCKER_CONTEXT over config.json", env: map[string]string{"HOME": home, "DOCKER_CONTEXT": "pi"}, wantHost: "tcp://10.0.0.7:2375", wantFrom: "docker context pi"},
		{name: "DOCKER_HOST over any context", env: map[string]string{"HOME": home, "DOCKER_CONTEXT": "pi", "DOCKER_HOST": "unix:///tmp/d.sock"}, wantHost: "unix:///tmp/d.sock", wantFrom: "DOCKER_HOST"},
		{name: "DOCKER_CONFIG moves the directory", env: map[string]string{"HOME": home, "DOCKER_CONFIG": otherCfg, "DOCKER_CONTEXT": "pi"}, wantHost: "tcp://10.0.0.8:2375"},
		{name: "context default is the default socket", env: map[string]string{"HOME": home, "DOCKER_CONTEXT": "default"}, wantHost: DefaultHost},
		{name: "unknown context", env: map[string]string{"HOME": home, "DOCKER_CONTEXT": "nope"}, wantErr: `docker context "nope" (named by DOCKER_CONTEXT) does not exist`},
		{name: "ssh context", env: map[string]string{"HOME": home, "DOCKER_CONTEXT": "remote-ssh"}, wantErr: `docker context remote-ssh: "ssh://me@pi": scheme "ssh" is not supported`},
		{name: "ssh host", env: map[string]string{"DOCKER_HOST": "ssh://me@pi"}, wantErr: `DOCKER_HOST: "ssh://me@pi": scheme "ssh" is not supported: use unix://`},
		{name: "ssh host says how to forward", env: map[string]string{"DOCKER_HOST": "ssh://me@pi"}, wantErr: "forward its socket (ssh -NL /tmp/docker.sock:/var/run/docker.sock HOST)"},
		{name: "TLS without certificates", env: map[string]string{"HOME": emptyHome, "DOCKER_HOST": "tcp://pi:2376", "DOCKER_TLS_VERIFY": "1"}, wantErr: "reading the CA certificate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ep, err := ResolveEndpoint(func(k string) string { return tt.env[k] })
			if errtest.Want(t, err, tt.wantErr) {
				return
			}
			if ep.Host != tt.wantHost || tt.wantFrom != "" && ep.From != tt.wantFrom {
				t.Errorf("endpoint %s from %s, want %s from %s", ep.Host, ep.From, tt.wantHost, tt.wantFrom)
			}
			if strings.HasPrefix(ep.From, "docker context ") && !strings.Contains(ep.Hint, "DOCKER_HOST overrides it") {
				t.Errorf("hint %q does not say where the address comes from", ep.Hint)
			}
		})
	}
}

func TestRootlessSocketIsNamedWhenTheDefaultIsMissing(t *testing.T) {
	saved := defaultHost
	defaultHost = "unix://" + filepath.Join(t.TempDir(), "missing.sock")
	t.Cleanup(func() { defaultHost = saved })
	run := t.TempDir()
	if err := os.WriteFile(filepath.Join(run, "docker.sock"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	ep, err := ResolveEndpoint(func(k string) string {
		return map[string]string{"HOME": t.TempDir(), "XDG_RUNTIME_DIR": run}[k]
	})
	if err != nil || !strings.Contains(ep.Hint, "DOCKER_HOST=unix://"+run+"/docker.sock") {
		t.Fatalf("endpoint %+v, %v; want a hint naming the rootless socket", ep, err)
	}
	err = NewClientFor(ep).Ping(context.Background())
	if err == nil || !strings.Contains(err.Error(), "a rootless Docker may listen at unix://"+run+"/docker.sock") {
		t.Errorf("Ping = %v, want the unreachable error to name the rootless socket", err)
	}
}
