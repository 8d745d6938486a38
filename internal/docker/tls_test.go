package docker_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/docker/enginetest"
	"github.com/boxtax/boxtax/internal/errtest"
)

// testCA signs certificates for one test.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newCA(t *testing.T) testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "boxtax test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return testCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// issue makes a certificate and key (PEM) for a server at 127.0.0.1 or a client.
func (ca testCA) issue(t *testing.T, serial int64, server bool) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "client"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	if server {
		tmpl.Subject.CommonName = "127.0.0.1"
		tmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1)}
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb})
}

// tlsProxy listens on 127.0.0.1 with TLS, demands a client certificate of
// the CA, and passes each connection on to the real daemon, as a daemon
// started with --tlsverify does. It returns the port.
func tlsProxy(t *testing.T, ca testCA, upstream docker.Endpoint) string {
	t.Helper()
	certPEM, keyPEM := ca.issue(t, 2, true)
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	l, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{pair},
		ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool, MinVersion: tls.VersionTLS12})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	network, address := upstream.Address()
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				if err := conn.(*tls.Conn).Handshake(); err != nil {
					return // a client without a good certificate
				}
				up, err := net.Dial(network, address)
				if err != nil {
					return
				}
				defer up.Close()
				go io.Copy(up, conn)
				io.Copy(conn, up)
			}()
		}
	}()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return port
}

// certDir writes ca.pem, cert.pem and key.pem as docker's TLS setup does.
func certDir(t *testing.T, dir string, ca testCA, client testCA) {
	t.Helper()
	certPEM, keyPEM := client.issue(t, 3, false)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"ca.pem": ca.pem, "cert.pem": certPEM, "key.pem": keyPEM} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// Real TLS to the real daemon: tcp:// with DOCKER_TLS_VERIFY and
// DOCKER_CERT_PATH, and the same through a docker context with its tls/
// directory; a client certificate of another CA is turned away.
func TestTLSToTheRealDaemon(t *testing.T) {
	up, _ := enginetest.RealDaemon(t)
	ca := newCA(t)
	port := tlsProxy(t, ca, up)
	host := "tcp://127.0.0.1:" + port

	good := t.TempDir()
	certDir(t, good, ca, ca)
	stranger := t.TempDir()
	certDir(t, stranger, ca, newCA(t)) // trusts the daemon, but the daemon does not know it
	otherCA := t.TempDir()
	certDir(t, otherCA, newCA(t), ca) // known to the daemon, but its ca.pem does not vouch for the daemon

	ctxHome := t.TempDir()
	cfg := filepath.Join(ctxHome, ".docker")
	sum := sha256.Sum256([]byte("secure"))
	id := hex.EncodeToString(sum[:])
	meta := filepath.Join(cfg, "contexts", "meta", id)
	if err := os.MkdirAll(meta, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(meta, "meta.json"),
		[]byte(`{"Name":"secure","Endpoints":{"docker":{"Host":"`+host+`","SkipTLSVerify":false}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	certDir(t, filepath.Join(cfg, "contexts", "tls", id, "docker"), ca, ca)
	if err := os.WriteFile(filepath.Join(cfg, "config.json"), []byte(`{"currentContext":"secure"}`), 0o600); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name    string
		env     map[string]string
		wantErr string
	}{
		{"DOCKER_TLS_VERIFY and DOCKER_CERT_PATH", map[string]string{"DOCKER_HOST": host, "DOCKER_TLS_VERIFY": "1", "DOCKER_CERT_PATH": good}, ""},
		{"certificates from ~/.docker", map[string]string{"DOCKER_HOST": host, "DOCKER_TLS_VERIFY": "1", "DOCKER_CONFIG": good}, ""},
		{"current docker context with TLS", map[string]string{"HOME": ctxHome}, ""},
		{"DOCKER_TLS does not check the daemon", map[string]string{"DOCKER_HOST": host, "DOCKER_TLS": "1", "DOCKER_CERT_PATH": otherCA}, ""},
		{"DOCKER_TLS_VERIFY does", map[string]string{"DOCKER_HOST": host, "DOCKER_TLS_VERIFY": "1", "DOCKER_CERT_PATH": otherCA}, "TLS with the Docker daemon"},
		{"client certificate of another CA", map[string]string{"DOCKER_HOST": host, "DOCKER_TLS_VERIFY": "1", "DOCKER_CERT_PATH": stranger}, "TLS with the Docker daemon at " + host + " failed: check ca.pem"},
		{"plain HTTP to a TLS port", map[string]string{"DOCKER_HOST": host, "HOME": t.TempDir()}, "if it uses TLS, set DOCKER_TLS_VERIFY=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ep, err := docker.ResolveEndpoint(func(k string) string { return tt.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			c := docker.NewClientFor(ep)
			ctx := context.Background()
			err = c.Ping(ctx)
			if errtest.Want(t, err, tt.wantErr) {
				return
			}
			if info, err := c.Info(ctx); err != nil || info.Driver == "" {
				t.Fatalf("Info over TLS = %+v, %v", info, err)
			}
		})
	}
}
