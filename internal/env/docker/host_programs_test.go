package docker

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/envtest"
	"github.com/boxtax/boxtax/internal/hostimage"
	"github.com/boxtax/boxtax/internal/testenv"
)

func TestHostProgramList(t *testing.T) {
	got := env.HostProgramList([]string{"/usr/sbin/nginx", "/usr/bin/redis-server", "/usr/sbin/nginx"})
	if want := "/usr/bin/redis-server,/usr/sbin/nginx"; strings.Join(got, ",") != want {
		t.Errorf("HostProgramList = %v, want %s", got, want)
	}
	base := workerImage{Tag: "boxtax-worker:0123456789ab"}
	if got := hostWorkerTag(base, "fedcba9876543210fedcba9876543210"); got != "boxtax-worker:0123456789ab-fedcba987654" {
		t.Errorf("hostWorkerTag = %s", got)
	}
	// No host programs: the plain worker image, without asking the engine.
	img, err := workerImageFor(context.Background(), nil, env.Options{}, base, env.Spec{Args: []string{"worker"}})
	if err != nil || img != base {
		t.Errorf("workerImageFor without host programs = %v, %v; want the plain image", img, err)
	}
}

// TestDockerHostPrograms runs the worker from an image holding the host's
// redis-server: the program runs in the container, and a redis started in
// a docker-host container answers PING on the host's loopback.
func TestDockerHostPrograms(t *testing.T) {
	const redis = "/usr/bin/redis-server"
	testenv.RequireTool(t, redis, "redis-server")
	c, opts, labels := setupLabelledDocker(t)
	e := envtest.NewPrepared(t, Environments(), "docker-host", opts)
	ctx := context.Background()
	spec := env.Spec{Args: []string{"exec", redis, "--version"}, Labels: labels, HostPrograms: []string{redis}}

	t.Run("the program runs in the container", func(t *testing.T) {
		var out, errOut bytes.Buffer
		settings, err := env.Run(ctx, e, spec, &out, &errOut)
		if err != nil {
			t.Fatalf("%v\nstderr: %s", err, errOut.String())
		}
		if !strings.Contains(out.String(), "Redis server v=") {
			t.Errorf("redis-server --version printed %q", out.String())
		}
		if settings["host_programs"] != redis {
			t.Errorf("settings[host_programs] = %q, want %s", settings["host_programs"], redis)
		}
		if tag := settings["image"]; !strings.HasPrefix(tag, testImageRepo+":") || strings.Count(tag, "-") < 3 {
			t.Errorf("settings[image] = %q, want %s:<binary hash>-<files hash>", tag, testImageRepo)
		}
		img, err := c.ImageInspect(ctx, settings["image"])
		if err != nil {
			t.Fatal(err)
		}
		if img.Config.Labels[env.LabelManaged] != "true" || img.Config.Labels[labelHostPrograms] != redis {
			t.Errorf("image labels = %v, want %s=true and %s=%s", img.Config.Labels, env.LabelManaged, labelHostPrograms, redis)
		}
	})

	t.Run("concurrent instances share one image", func(t *testing.T) {
		var wg sync.WaitGroup
		tags := make([]string, 3)
		errs := make([]error, 3)
		for i := range tags {
			wg.Go(func() {
				s, err := env.Run(ctx, e, spec, io.Discard, io.Discard)
				tags[i], errs[i] = s["image"], err
			})
		}
		wg.Wait()
		for i := range tags {
			if errs[i] != nil || tags[i] != tags[0] {
				t.Errorf("instance %d: image %q, error %v; want %q", i, tags[i], errs[i], tags[0])
			}
		}
	})

	t.Run("without host programs the plain image", func(t *testing.T) {
		s, err := env.Run(ctx, e, env.Spec{Args: []string{"exit", "0"}, Labels: labels}, io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := s["host_programs"]; ok || strings.Count(s["image"], "-") > 2 {
			t.Errorf("settings = %v, want the plain worker image and no host_programs", s)
		}
	})

	t.Run("a missing program is named", func(t *testing.T) {
		_, err := env.Run(ctx, e, env.Spec{Args: []string{"exit", "0"}, Labels: labels, HostPrograms: []string{"/usr/bin/boxtax-no-such-program"}}, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "program /usr/bin/boxtax-no-such-program does not exist") {
			t.Fatalf("error = %v, want it to name the missing program", err)
		}
	})

	// redis started by the worker in each Docker environment answers PING:
	// on the host's loopback in docker-host, through the published port in
	// docker-bridge (where it listens on the container's own 0.0.0.0).
	for _, tt := range []struct{ env, bind string }{{"docker-host", "127.0.0.1"}, {"docker-bridge", "0.0.0.0"}} {
		t.Run("redis answers PING in "+tt.env, func(t *testing.T) {
			e := envtest.New(t, Environments(), tt.env, opts)
			port := testenv.FreePort(t)
			args := []string{"exec", redis, "--port", strconv.Itoa(port), "--bind", tt.bind,
				"--save", "", "--appendonly", "no", "--protected-mode", "no", "--daemonize", "no"}
			inst, err := e.Start(ctx, env.Spec{Args: args, Labels: labels, HostPrograms: []string{redis},
				Ports: []env.Port{{Proto: "tcp", Port: port, HostIP: "127.0.0.1"}}}, io.Discard, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			defer inst.Stop(ctx)
			if inst.Settings()["host_programs"] != redis {
				t.Errorf("settings = %v, want host_programs %s", inst.Settings(), redis)
			}
			reply, err := redisPing(fmt.Sprintf("127.0.0.1:%d", port), 20*time.Second)
			if err != nil || reply != "+PONG" {
				t.Fatalf("PING = %q, %v; want +PONG", reply, err)
			}
			if err := inst.Stop(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// redisPing sends PING until redis answers or the time is up.
func redisPing(addr string, within time.Duration) (string, error) {
	deadline := time.Now().Add(within)
	for {
		reply, err := func() (string, error) {
			conn, err := net.DialTimeout("tcp", addr, time.Second)
			if err != nil {
				return "", err
			}
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(2 * time.Second))
			if _, err := conn.Write([]byte("PING\r\n")); err != nil {
				return "", err
			}
			line, err := bufio.NewReader(conn).ReadString('\n')
			return strings.TrimSpace(line), err
		}()
		if err == nil || time.Now().After(deadline) {
			return reply, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestRemoveManagedImages removes the images boxtax built, here only this
// test's own (other boxtax runs may share the daemon), saying each with its
// size and the space freed; without removing, it counts them (issue 27
// item 4).
func TestRemoveManagedImages(t *testing.T) {
	c, opts := setupDocker(t)
	ctx := context.Background()
	base, err := ensureWorkerImage(ctx, c, opts)
	if err != nil {
		t.Fatal(err)
	}
	labels := testLabels(t)
	tag := base.Tag + "-clean"
	rootfs, err := workerRootfs([]byte("not a program"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ImageImport(ctx, bytes.NewReader(rootfs), docker.ImportOptions{Tag: tag, Message: hostimage.MessageWorker,
		Labels: map[string]string{env.LabelManaged: "true", "io.boxtax.test": labels["io.boxtax.test"], hostimage.LabelName: tag}}); err != nil {
		t.Fatal(err)
	}
	mine := map[string]string{env.LabelManaged: "true", "io.boxtax.test": labels["io.boxtax.test"]}
	kept, err := cleanLabelledImages(ctx, c, mine, "", false)
	if err != nil || len(kept) != 1 || !strings.HasPrefix(kept[0], "kept 1 image(s) built by boxtax (") || !strings.Contains(kept[0], "boxtax clean --images") {
		t.Fatalf("cleanLabelledImages without removing = %q, %v", kept, err)
	}
	if _, err := c.ImageInspect(ctx, tag); err != nil {
		t.Fatalf("counting removed the image: %v", err)
	}
	removed, err := cleanLabelledImages(ctx, c, mine, "", true)
	if err != nil || len(removed) != 2 || !strings.HasPrefix(removed[0], "removed image "+tag+" (") || !strings.HasSuffix(removed[0], " B)") ||
		!strings.HasPrefix(removed[1], "removed 1 image(s) built by boxtax, ") || !strings.HasSuffix(removed[1], "B freed") {
		t.Fatalf("cleanLabelledImages = %q, %v; want %s removed with its size", removed, err, tag)
	}
	if _, err := c.ImageInspect(ctx, tag); !docker.IsNotFound(err) {
		t.Errorf("image %s still there: %v", tag, err)
	}
	if _, err := c.ImageInspect(ctx, base.Tag); err != nil {
		t.Errorf("the worker image without the test label was removed too: %v", err)
	}
}
