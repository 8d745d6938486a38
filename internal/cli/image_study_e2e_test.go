package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// imageRunsOK checks that every run of the study ran and stored the same
// image id, natively from the image's files, and returns the runs by
// environment.
func imageRunsOK(t *testing.T, db string) map[string][]store.Run {
	t.Helper()
	_, runs, _ := testenv.Stored(t, db)
	byEnv := map[string][]store.Run{}
	ids := map[string]bool{}
	for _, r := range runs {
		if r.Status != store.RunOK {
			t.Errorf("run %d in %s: %s %s", r.Seq, r.Env, r.Status, r.Reason)
			continue
		}
		byEnv[r.Env] = append(byEnv[r.Env], r)
		if r.Settings["image_id"] == "" {
			t.Errorf("run %d in %s stored no image id: %v", r.Seq, r.Env, r.Settings)
		}
		ids[r.Settings["image_id"]] = true
		if r.Env == "native" && r.Settings["files"] != "the image's files, chroot" {
			t.Errorf("the native run %d says it ran %q, want the image's files: %v", r.Seq, r.Settings["files"], r.Settings)
		}
	}
	if len(ids) != 1 {
		t.Errorf("the runs ran %d image ids, want one: %v", len(ids), ids)
	}
	return byEnv
}

// TestImageStudyCommandInTheImage: --cmd in a real Debian image, natively
// (chroot into its files), in Docker, in Podman (moved there from Docker,
// the same id) and in LXC (from the same unpacked files). The command is a program only the image has, run
// from the image's WorkingDir with its Env: the host has no such program,
// so a native run that passes ran the image's.
func TestImageStudyCommandInTheImage(t *testing.T) {
	testenv.RequireRoot(t, "chroot into the image's files")
	testenv.RequireDebianImage(t, testenv.DebianGzipImage)
	requireEnvironment(t, "podman-bridge", "Podman")
	requireEnvironment(t, "lxc", "LXC")
	if _, err := exec.LookPath("boxtax-only-in-image"); err == nil {
		t.Fatal("this host has boxtax-only-in-image: the test could not tell the image's program from the host's")
	}
	dir := t.TempDir()
	check := `sh -c 'test "$BOXTAX_IMAGE_VAR" = from-the-image && test "$(pwd)" = /srv && boxtax-only-in-image'`
	res := runOK(t, dir, "run", "--image", testenv.DebianGzipImage, "--cmd", check, "--metric", `gz_bytes=(?m)^([0-9]+)$`,
		"--envs", "native,docker-bridge,podman-bridge,lxc", "--reps", "1", "--warmup", "0", "--settle", "0", "--monitor-interval", "0")
	stderrSays(t, res, "image "+testenv.DebianGzipImage, "native: the image's files, chroot")
	stdoutSays(t, res, "native: the image's files, chroot", "podman-bridge")
	byEnv := imageRunsOK(t, filepath.Join(dir, "boxtax.db"))
	for _, e := range []string{"native", "docker-bridge", "podman-bridge", "lxc"} {
		if len(byEnv[e]) != 1 {
			t.Errorf("%d runs in %s, want 1", len(byEnv[e]), e)
		}
	}
	out := runOK(t, dir, "report", "--format", "json")
	if !strings.Contains(out.stdout, `"files": "the image's files, chroot"`) {
		t.Errorf("the JSON report does not say which files native ran:\n%.2000s", out.stdout)
	}
}

// TestImageStudyImageOnlyInPodman: an image only Podman holds (imported
// there by the test from the Debian image's files, so its id is its own)
// is moved to Docker, the same id, and runs natively from its files, in
// Docker and in Podman. The test removes the image it made from both.
func TestImageStudyImageOnlyInPodman(t *testing.T) {
	testenv.RequireRoot(t, "chroot into the image's files")
	testenv.RequireDebianImage(t, testenv.DebianGzipImage)
	testenv.RequireTool(t, "podman", "podman")
	requireEnvironment(t, "podman-bridge", "Podman")
	name := fmt.Sprintf("boxtax-test-podman-only:%d", os.Getpid())
	made := exec.Command("sh", "-c", `set -e; c=$(docker create "$1"); trap 'docker rm "$c" >/dev/null' EXIT
docker export "$c" | podman import --quiet --change 'CMD ["boxtax-only-in-image"]' --change 'ENV BOXTAX_IMAGE_VAR=podman' - "$2"`,
		"sh", testenv.DebianGzipImage, name)
	out, err := made.CombinedOutput()
	id := strings.TrimSpace(string(out)) // podman import --quiet prints sha256:ID
	if err != nil {
		t.Fatalf("importing the image into Podman: %v: %s", err, out)
	}
	t.Cleanup(func() {
		_ = exec.Command("podman", "rmi", "--force", id).Run()
		_ = exec.Command("docker", "rmi", "--force", id).Run()
		if _, err := env.RemoveImageRoots(id); err != nil { // its files, unpacked for native
			t.Error(err)
		}
	})
	if exec.Command("docker", "image", "inspect", name).Run() == nil {
		t.Fatalf("Docker has %s before the study: the test could not show the move", name)
	}
	dir := t.TempDir()
	runOK(t, dir, "run", "--image", name, "--envs", "native,docker-bridge,podman-bridge",
		"--reps", "1", "--warmup", "0", "--settle", "0", "--monitor-interval", "0")
	byEnv := imageRunsOK(t, filepath.Join(dir, "boxtax.db"))
	for _, e := range []string{"native", "docker-bridge", "podman-bridge"} {
		if len(byEnv[e]) != 1 || byEnv[e][0].Settings["image_id"] != id {
			t.Errorf("%s ran %d runs, want one run of Podman's image %s", e, len(byEnv[e]), id)
		}
	}
	if got, _ := exec.Command("docker", "image", "inspect", "--format", "{{.Id}}", name).Output(); strings.TrimSpace(string(got)) != id {
		t.Errorf("Docker's %s is %q after the study, want Podman's %s", name, got, id)
	}
}

// TestImageStudyOwnProgram: --image alone runs the image's own program
// (its Cmd, gzip of a file in the image), and the study stores it.
func TestImageStudyOwnProgram(t *testing.T) {
	testenv.RequireRoot(t, "chroot into the image's files")
	testenv.RequireDebianImage(t, testenv.DebianGzipImage)
	dir := t.TempDir()
	runOK(t, dir, "run", "--image", testenv.DebianGzipImage, "--envs", "native,docker-host",
		"--reps", "1", "--warmup", "0", "--settle", "0", "--monitor-interval", "0")
	st, _, _ := testenv.Stored(t, filepath.Join(dir, "boxtax.db"))
	for _, want := range []string{"gzip", "/usr/share/common-licenses/GPL-3", "image_id: sha256:", "BOXTAX_IMAGE_VAR=from-the-image"} {
		if !strings.Contains(st.SpecYAML, want) {
			t.Errorf("the stored study lacks %q:\n%s", want, st.SpecYAML)
		}
	}
	imageRunsOK(t, filepath.Join(dir, "boxtax.db"))
}

// TestImageStudyServer: the image's own server (mosquitto, at the port it
// exposes) natively from its files and in a container on Docker's bridge,
// the client (mosquitto_pub) on the host.
func TestImageStudyServer(t *testing.T) {
	testenv.RequireRoot(t, "chroot into the image's files")
	testenv.RequireDebianImage(t, testenv.DebianMosquittoImage)
	testenv.RequireTool(t, "mosquitto_pub", "mosquitto-clients")
	dir := t.TempDir()
	study := filepath.Join(dir, "broker.yaml")
	testenv.WriteFile(t, study, []byte(`name: my-broker
repetitions: 1
warmup: 0
envs: [native, docker-bridge]
workloads:
  - name: cmd.server
    params:
      image: `+testenv.DebianMosquittoImage+`
      client: mosquitto_pub -h {host} -p {port} -t boxtax/test -m hello -q 1 --repeat 50
`), 0o644)
	runOK(t, dir, "run", study, "--settle", "0", "--monitor-interval", "0")
	st, _, _ := testenv.Stored(t, filepath.Join(dir, "boxtax.db"))
	for _, want := range []string{"port: 1883", "/usr/sbin/mosquitto"} {
		if !strings.Contains(st.SpecYAML, want) {
			t.Errorf("the stored study lacks %q:\n%s", want, st.SpecYAML)
		}
	}
	byEnv := imageRunsOK(t, filepath.Join(dir, "boxtax.db"))
	if len(byEnv["native"]) != 1 || len(byEnv["docker-bridge"]) != 1 {
		t.Errorf("runs by environment: %v", byEnv)
	}
}
