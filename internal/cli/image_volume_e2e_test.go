package cli

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/engines"
	"github.com/boxtax/boxtax/internal/testenv"
)

// TestImageStudyVolumeIsFreshEachRun: issue 38, an image's VOLUME starts
// as the image has it in every run, in every environment. The image (the
// Debian test image with VOLUME /data holding a two-line seed file)
// appends a line to the seed and prints how many lines it has: a
// container's fresh volume says 3 every time, and so must native and LXC,
// which reuse (and share) the unpacked files from run to run, the check
// runs included: without the restore, native counted 6, 8, 9 and LXC 5, 7,
// 10 here.
func TestImageStudyVolumeIsFreshEachRun(t *testing.T) {
	testenv.RequireRoot(t, "chroot into the image's files")
	testenv.RequireDebianImage(t, testenv.DebianGzipImage)
	dockerCLI := testenv.RequireTool(t, "docker", "docker.io")
	envs := []string{"native", "docker-bridge"}
	for _, e := range []struct{ name, pkg string }{{"podman-bridge", "podman"}, {"lxc", "lxc"}} {
		if why := unavailable(e.name); why != "" {
			if testenv.InCI() {
				t.Fatalf("%s cannot run here (Debian: apt-get install %s): %s; CI must run it", e.name, e.pkg, why)
			}
			t.Logf("%s left out: it cannot run here (Debian: apt-get install %s): %s", e.name, e.pkg, why)
			continue
		}
		envs = append(envs, e.name)
	}

	dir := t.TempDir()
	// A seed of its own makes an image of its own: no files unpacked by
	// an earlier test run are reused.
	nonce := strconv.FormatInt(time.Now().UnixNano(), 36)
	name := "boxtax-test-volume:" + nonce
	testenv.WriteFile(t, filepath.Join(dir, "seed"), []byte("seed "+nonce+"\nsecond line\n"), 0o644)
	testenv.WriteFile(t, filepath.Join(dir, "Dockerfile"), []byte(`FROM `+testenv.DebianGzipImage+`
COPY seed /data/seed
VOLUME /data
CMD ["sh", "-c", "echo run >> /data/seed && wc -l < /data/seed"]
`), 0o644)
	build := exec.Command(dockerCLI, "build", "-q", "-t", name, dir)
	var stderr strings.Builder
	build.Stderr = &stderr
	out, err := build.Output() // the id alone; the legacy builder warns on stderr
	if err != nil {
		t.Fatalf("docker build: %v\n%s%s", err, out, stderr.String())
	}
	id := strings.TrimSpace(string(out))
	if !strings.HasPrefix(id, "sha256:") {
		t.Fatalf("docker build -q printed %q, not the image's id", out)
	}
	t.Cleanup(func() {
		_ = exec.Command(dockerCLI, "rmi", "--force", id).Run()
		_ = exec.Command("podman", "rmi", "--force", id).Run()
		if _, err := env.RemoveImageRoots(id); err != nil { // its files, unpacked for native and LXC
			t.Error(err)
		}
	})

	runOK(t, dir, "run", "--image", name, "--metric", `lines=(?m)^([0-9]+)$`, "--envs", strings.Join(envs, ","),
		"--reps", "3", "--warmup", "0", "--settle", "0", "--monitor-interval", "0")
	db := filepath.Join(dir, "boxtax.db")
	byEnv := imageRunsOK(t, db)
	_, runs, samples := testenv.Stored(t, db)
	envOf := map[int64]string{}
	for _, r := range runs {
		envOf[r.ID] = r.Env
	}
	seen := map[string][]float64{}
	for _, s := range samples {
		if s.Metric == "lines" {
			seen[envOf[s.RunID]] = append(seen[envOf[s.RunID]], s.Value)
		}
	}
	for _, e := range envs {
		if len(byEnv[e]) > 0 && byEnv[e][0].Settings["image_id"] != id {
			t.Errorf("%s ran image %s, want the one built, %s", e, byEnv[e][0].Settings["image_id"], id)
		}
		t.Logf("%s: line counts %v", e, seen[e])
		if len(byEnv[e]) != 3 || len(seen[e]) != 3 {
			t.Errorf("%s: %d runs ok and %d line counts, want 3 of each", e, len(byEnv[e]), len(seen[e]))
		}
		for i, n := range seen[e] {
			if n != 3 {
				t.Errorf("%s, run %d: the program found %v lines in /data/seed, want 3 (the image's 2 and its own): the volume did not start as the image has it", e, i+1, n)
			}
		}
	}
}

// unavailable says why the environment name cannot run here, "" when it can.
func unavailable(name string) string {
	e, err := engines.New(name, env.Options{BinaryPath: boxtaxBin, Version: "test"})
	if err == nil {
		err = e.Available(context.Background())
		_ = env.CloseAll(context.Background(), map[string]env.Environment{name: e})
	}
	if err != nil {
		return fmt.Sprint(err)
	}
	return ""
}
