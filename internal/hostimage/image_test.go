package hostimage

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/testenv"
)

// testTag is a tag of this test's own, removed when the test ends.
func testTag(t *testing.T, c *docker.Client, name string) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	tag := "boxtax-hostimage-test-" + name + ":" + hex.EncodeToString(b)
	t.Cleanup(func() {
		if err := c.ImageRemove(context.Background(), tag, true); err != nil && !docker.IsNotFound(err) {
			t.Errorf("removing test image %s: %v", tag, err)
		}
	})
	return tag
}

// importHelloImage imports under a test tag (testTag) an image of one file,
// /hello holding content, with labels, and returns the tag and the ID.
func importHelloImage(t *testing.T, c *docker.Client, name, content string, labels map[string]string) (tag, id string) {
	t.Helper()
	tag = testTag(t, c, name)
	var rootfs bytes.Buffer
	s := NewSet()
	s.AddData("/hello", []byte(content), 0o644, RoleExtra)
	if err := s.WriteTar(&rootfs); err != nil {
		t.Fatal(err)
	}
	id, err := c.ImageImport(context.Background(), &rootfs, docker.ImportOptions{Tag: tag, Labels: labels})
	if err != nil {
		t.Fatal(err)
	}
	return tag, id
}

// runContainer runs cmd in a container of the image and returns its output
// and exit code; the container is removed.
func runContainer(t *testing.T, c *docker.Client, image, network string, cmd ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	created, err := c.ContainerCreate(ctx, docker.ContainerConfig{Image: image, Cmd: cmd,
		Labels: map[string]string{"io.boxtax.managed": "true", "io.boxtax.test": "hostimage"}, HostConfig: docker.HostConfig{NetworkMode: network}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.ContainerRemove(context.Background(), created.ID, true)
	stream, err := c.ContainerAttach(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var out, errOut bytes.Buffer
	copied := make(chan error, 1)
	go func() { copied <- docker.Demux(&out, &errOut, stream) }()
	if err := c.ContainerStart(ctx, created.ID); err != nil {
		t.Fatal(err)
	}
	exit, err := c.ContainerWait(ctx, created.ID, docker.WaitNotRunning)
	if err != nil {
		t.Fatal(err)
	}
	<-copied
	return out.String(), errOut.String(), exit.Code
}

// TestImagesOfServices builds an image for each real service and runs its
// version or help in a container: the host's binary with the host's
// libraries runs in an otherwise empty image.
func TestImagesOfServices(t *testing.T) {
	c := testenv.DockerIntegration(t)
	for _, tt := range []struct {
		name, program string
		args          []string
		exitCode      int
		want          string // in stdout or stderr
	}{
		{"redis", "/usr/bin/redis-server", []string{"--version"}, 0, "Redis server v="},
		{"mosquitto", "/usr/sbin/mosquitto", []string{"-h"}, 3, "mosquitto version"}, // -h exits 3
		{"nginx", "/usr/sbin/nginx", []string{"-v"}, 0, "nginx version: nginx/"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireProgram(t, tt.program)
			tag := testTag(t, c, tt.name)
			res, err := FromHost(context.Background(), c, []string{tt.program}, FromHostOptions{Tag: tag, Version: "test"})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Built || res.Tag != tag || !strings.HasPrefix(res.Image.ID, "sha256:") {
				t.Errorf("result %+v: want the image built now under %s", res, tag)
			}
			labels := res.Image.Config.Labels
			if labels[LabelManaged] != "true" || labels[LabelHostPrograms] != tt.program || labels[LabelFilesHash] != res.Hash {
				t.Errorf("labels = %v", labels)
			}
			t.Logf("%s: image %.1f MB, %d files, %d libraries", tt.program, float64(res.Image.SizeBytes)/1e6, res.Summary.Files, len(res.Summary.Libraries))
			stdout, stderr, code := runContainer(t, c, tag, "none", append([]string{tt.program}, tt.args...)...)
			if code != tt.exitCode || !strings.Contains(stdout+stderr, tt.want) {
				t.Errorf("%s %v in the container: exit %d, want %d; output:\n%s%s", tt.program, tt.args, code, tt.exitCode, stdout, stderr)
			}
			// The same programs again: the same tag and image, not rebuilt.
			again, err := FromHost(context.Background(), c, []string{tt.program}, FromHostOptions{Tag: tag, Version: "test"})
			if err != nil || again.Built || again.Image.ID != res.Image.ID || again.Hash != res.Hash {
				t.Errorf("second FromHost = built %v, id %s, hash %s, %v; want the first image", again.Built, again.Image.ID, again.Hash, err)
			}
		})
	}
}

// TestServicesServeInContainers starts redis, mosquitto and nginx from one
// image on the host network and talks to each: users are looked up (the
// broker drops to user mosquitto, nginx's workers to nobody) and the
// services answer.
func TestServicesServeInContainers(t *testing.T) {
	c := testenv.DockerIntegration(t)
	programs := []string{"/usr/bin/redis-server", "/usr/sbin/mosquitto", "/usr/sbin/nginx"}
	for _, p := range programs {
		requireProgram(t, p)
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ports := [3]int{testenv.FreePort(t), testenv.FreePort(t), testenv.FreePort(t)}
	conf := filepath.Join(dir, "nginx.conf")
	nginxConf := fmt.Sprintf(`worker_processes 1;
pid /tmp/nginx.pid;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path /tmp/body; proxy_temp_path /tmp/proxy; fastcgi_temp_path /tmp/fastcgi;
  uwsgi_temp_path /tmp/uwsgi; scgi_temp_path /tmp/scgi;
  server { listen 127.0.0.1:%d; location / { return 200 "ok\n"; } }
}
`, ports[2])
	testenv.WriteFile(t, conf, []byte(nginxConf), 0o644)
	tag := testTag(t, c, "services")
	if _, err := FromHost(context.Background(), c, programs, FromHostOptions{Tag: tag, Files: []string{conf}, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		cmd  []string
		talk func(addr string) (string, error)
		want string
	}{
		{"redis", []string{"/usr/bin/redis-server", "--port", fmt.Sprint(ports[0]), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"},
			func(addr string) (string, error) { return request(addr, "PING\r\n") }, "+PONG"},
		{"mosquitto", []string{"/usr/sbin/mosquitto", "-p", fmt.Sprint(ports[1])},
			// CONNECT (MQTT 3.1.1, clean session, client id "t"): CONNACK 20 02 00 00.
			func(addr string) (string, error) {
				return request(addr, "\x10\x0d\x00\x04MQTT\x04\x02\x00\x3c\x00\x01t")
			}, "\x20\x02\x00\x00"},
		{"nginx", []string{"/usr/sbin/nginx", "-e", "/dev/stderr", "-c", conf, "-g", "daemon off;"},
			func(addr string) (string, error) { return request(addr, "GET / HTTP/1.0\r\n\r\n") }, "ok"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			addr := fmt.Sprintf("127.0.0.1:%d", ports[map[string]int{"redis": 0, "mosquitto": 1, "nginx": 2}[tt.name]])
			id := startContainer(t, c, tag, tt.cmd)
			var reply string
			var err error
			for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
				if reply, err = tt.talk(addr); err == nil && strings.Contains(reply, tt.want) {
					break
				}
			}
			if !strings.Contains(reply, tt.want) {
				ct, _ := c.ContainerInspect(context.Background(), id)
				t.Fatalf("%s answered %q, %v; want %q (container state %+v)", tt.name, reply, err, tt.want, ct.State)
			}
		})
	}
}

// startContainer starts cmd in a container on the host network, removed when
// the test ends.
func startContainer(t *testing.T, c *docker.Client, image string, cmd []string) string {
	t.Helper()
	ctx := context.Background()
	created, err := c.ContainerCreate(ctx, docker.ContainerConfig{Image: image, Cmd: cmd,
		Labels: map[string]string{"io.boxtax.managed": "true", "io.boxtax.test": "hostimage"}, HostConfig: docker.HostConfig{NetworkMode: "host"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.ContainerRemove(context.Background(), created.ID, true); err != nil && !docker.IsNotFound(err) {
			t.Errorf("removing container %s: %v", created.ID[:12], err)
		}
	})
	if err := c.ContainerStart(ctx, created.ID); err != nil {
		t.Fatal(err)
	}
	return created.ID
}

// request sends msg and returns what comes back within a second.
func request(addr, msg string) (string, error) {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Second))
	if _, err := conn.Write([]byte(msg)); err != nil {
		return "", err
	}
	buf := make([]byte, 4096)
	n, err := conn.Read(buf)
	return string(buf[:n]), err
}

// TestFromHostLeavesForeignImagesAlone: --tag naming an image boxtax did not
// make is refused and the image stays as it was; boxtax's own image of other
// files under the tag is replaced (issue 15, item 2).
func TestFromHostLeavesForeignImagesAlone(t *testing.T) {
	c := testenv.DockerIntegration(t)
	requireProgram(t, "/bin/ls")
	ctx := context.Background()
	foreign, foreignID := importHelloImage(t, c, "foreign", "not boxtax's", map[string]string{"org.example.owner": "someone else"})
	_, err := FromHost(ctx, c, []string{"/bin/ls"}, FromHostOptions{Tag: foreign, Version: "test"})
	var inUse *TagInUseError
	if !errors.As(err, &inUse) || !strings.Contains(err.Error(), "was not made by boxtax") || !strings.Contains(err.Error(), "choose another --tag") {
		t.Fatalf("FromHost over a foreign image = %v, want a *TagInUseError saying what to do", err)
	}
	if img, err := c.ImageInspect(ctx, foreign); err != nil || img.ID != foreignID {
		t.Fatalf("the foreign image %s is gone or changed: %+v, %v", foreign, img.ID, err)
	}

	own, oldID := importBoxtaxImage(t, c, "own", map[string]string{LabelManaged: "true", LabelFilesHash: "0000"}, MessageHostPrograms)
	res, err := FromHost(ctx, c, []string{"/bin/ls"}, FromHostOptions{Tag: own, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Built || res.Image.ID == oldID || res.Image.Config.Labels[LabelFilesHash] != res.Hash {
		t.Errorf("boxtax's own image of other files was not replaced: built %v, id %s (old %s)", res.Built, res.Image.ID, oldID)
	}
}

// importBoxtaxImage imports an image as boxtax's from-host does: its
// name recorded (LabelName) and boxtax's import message.
// message "" is how an image built over the tag FROM boxtax's looks.
func importBoxtaxImage(t *testing.T, c *docker.Client, name string, labels map[string]string, message string) (tag, id string) {
	t.Helper()
	tag = testTag(t, c, name)
	labels = maps.Clone(labels)
	labels[LabelName] = tag
	var rootfs bytes.Buffer
	s := NewSet()
	s.AddData("/hello", []byte("boxtax's"), 0o644, RoleExtra)
	if err := s.WriteTar(&rootfs); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ImageImport(context.Background(), &rootfs, docker.ImportOptions{Tag: tag, Labels: labels, Message: message}); err != nil {
		t.Fatal(err)
	}
	img, err := c.ImageInspect(context.Background(), tag)
	if err != nil {
		t.Fatal(err)
	}
	return tag, img.ID
}

// TestFromHostLeavesAnImageBuiltFromBoxtaxsAlone: issue 42 finding 3, an
// image the user built FROM a boxtax image inherits boxtax's labels, and
// --tag naming it deleted it. It is refused, saying why, and the image
// stays: under another name than boxtax recorded, or under boxtax's name
// but with the user's own comment (built over the very tag).
func TestFromHostLeavesAnImageBuiltFromBoxtaxsAlone(t *testing.T) {
	c := testenv.DockerIntegration(t)
	requireProgram(t, "/bin/ls")
	ctx := context.Background()
	inherited := map[string]string{LabelManaged: "true", LabelFilesHash: "0000", LabelName: "boxtax-sleep:0123456789ab"}
	derived, derivedID := importHelloImage(t, c, "derived", "the user's", inherited)
	over, overID := importBoxtaxImage(t, c, "over", inherited, "")
	for tag, id := range map[string]string{derived: derivedID, over: overID} {
		_, err := FromHost(ctx, c, []string{"/bin/ls"}, FromHostOptions{Tag: tag, Version: "test"})
		var inUse *TagInUseError
		if !errors.As(err, &inUse) || !strings.Contains(err.Error(), "not made by boxtax under this name") || !strings.Contains(err.Error(), "choose another --tag") {
			t.Errorf("FromHost over an image built FROM boxtax's = %v, want a *TagInUseError saying what to do", err)
		}
		if img, err := c.ImageInspect(ctx, tag); err != nil || img.ID != id {
			t.Errorf("the user's image %s is gone or changed: %+v, %v", tag, img.ID, err)
		}
	}
}

// TestFromHostNeverRemovesAnotherNamesImage: issue 25 item 7, --tag given
// a boxtax image's ID found that image, stored under another name, and
// replaced it: deleted it. A tag that is an ID, or finds an image not
// named so, is refused and the image stays.
func TestFromHostNeverRemovesAnotherNamesImage(t *testing.T) {
	c := testenv.DockerIntegration(t)
	requireProgram(t, "/bin/ls")
	ctx := context.Background()
	own, id := importHelloImage(t, c, "named", "boxtax's, of other files", map[string]string{LabelManaged: "true", LabelFilesHash: "0000"})
	hex := strings.TrimPrefix(id, "sha256:")
	for _, tag := range []string{hex[:12], id, hex} {
		_, err := FromHost(ctx, c, []string{"/bin/ls"}, FromHostOptions{Tag: tag, Version: "test"})
		var input *InputError
		if !errors.As(err, &input) || !strings.Contains(err.Error(), "looks like an image ID") {
			t.Errorf("FromHost --tag %s = %v, want it refused as an image ID", tag, err)
		}
		if img, err := c.ImageInspect(ctx, own); err != nil || img.ID != id {
			t.Fatalf("after --tag %s the image %s is gone or changed: %v", tag, own, err)
		}
	}
}

func TestTagNames(t *testing.T) {
	for tag, want := range map[string]string{
		"0123456789ab": "looks like an image ID", "sha256:0123": "looks like an image ID",
		"redis@sha256:0123456789abcdef": "digest reference", "my-tool:1": "", "boxtax-ls:0123456789ab": "",
	} {
		err := checkTag(tag)
		if (want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("checkTag(%s) = %v, want %q", tag, err, want)
		}
	}
	img := docker.Image{RepoTags: []string{"docker.io/library/redis:latest", "localhost/tool:1"}}
	for tag, want := range map[string]bool{"redis": true, "redis:latest": true, "tool:1": true, "tool": false, "redis:7": false} {
		if namedAs(img, tag) != want {
			t.Errorf("namedAs(%v, %s) = %v, want %v", img.RepoTags, tag, !want, want)
		}
	}
}
