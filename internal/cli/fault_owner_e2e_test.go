package cli

// Part of the fault-injection suite (issue 42): clean beside what is not
// boxtax's and beside a study that still runs, and after a rootless Podman
// study killed outright. clean decides what is boxtax's by what boxtax
// recorded (its controller label on the containers it creates, the names
// it gave its images), never by a label a container or image inherits.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/testenv"
)

// TestCleanLeavesTheUsersContainerAndImages: issue 42 findings 1-3. The
// user runs a container of an image boxtax made (image from-host), builds
// an image FROM it and runs that too, and tags boxtax's image with a name
// of their own. clean removes neither container; image from-host --tag
// over the derived image is refused; clean --images leaves the derived
// image and the user's tag, and says so.
func TestCleanLeavesTheUsersContainerAndImages(t *testing.T) {
	c := testenv.RequireDocker(t)
	dockerCLI := testenv.RequireTool(t, "docker", "docker.io")
	ctx := context.Background()
	dir := t.TempDir()
	sfx := strconv.FormatInt(time.Now().UnixNano(), 36)
	mine, derived, extra := "owner-mysleep-"+sfx+":1", "owner-derived-"+sfx+":1", "owner-myapp-"+sfx+":extratag"
	for _, ref := range []string{mine, derived, extra} {
		t.Cleanup(func() { _ = c.ImageRemove(context.Background(), ref, true) })
	}
	runOK(t, dir, "image", "from-host", "--tag", mine, "/usr/bin/sleep")
	docker := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(dockerCLI, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("docker %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte("FROM "+mine+"\nCMD [\"/usr/bin/sleep\", \"1000\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	docker("build", "-q", "-t", derived, dir)
	docker("tag", mine, extra)
	var containers []string
	for _, image := range []string{mine, derived} {
		id := docker("run", "-d", "--label", "io.boxtax.test=owner-"+sfx, image, "/usr/bin/sleep", "1000")
		containers = append(containers, id)
		t.Cleanup(func() { _ = c.ContainerRemove(context.Background(), id, true) })
	}

	res := runOK(t, dir, "clean")
	for _, id := range containers {
		ct, err := c.ContainerInspect(ctx, id)
		if err != nil || !ct.State.Running {
			t.Errorf("clean removed or stopped the user's container %s of a boxtax image (%v)\n%s", id[:12], err, res.stdout)
		}
	}
	if !regexp.MustCompile(`left \d+ container\(s\) that boxtax did not start`).MatchString(res.stdout) {
		t.Errorf("clean does not say it left the user's containers:\n%s", res.stdout)
	}

	before, err := c.ImageInspect(ctx, derived)
	if err != nil {
		t.Fatal(err)
	}
	runExits(t, dir, ExitUsage, []string{"image", "from-host", "--tag", derived, "/bin/ls"}, "not made by boxtax under this name", "choose another --tag")
	if after, err := c.ImageInspect(ctx, derived); err != nil || after.ID != before.ID {
		t.Errorf("image from-host --tag %s replaced the user's image built FROM boxtax's: %v", derived, err)
	}

	// The containers hold their images; without them clean --images
	// would be refused for a used image, not test the names.
	for _, id := range containers {
		_ = c.ContainerRemove(ctx, id, true)
	}
	res = runOK(t, dir, "clean", "--images")
	for _, want := range []string{"untagged " + mine + ": the image stays, as " + extra, "image(s) that carry boxtax's labels under a name boxtax did not give them"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("clean --images does not say %q:\n%s", want, res.stdout)
		}
	}
	for ref, want := range map[string]bool{mine: false, derived: true, extra: true} {
		if _, err := c.ImageInspect(ctx, ref); (err == nil) != want {
			t.Errorf("after clean --images, image %s there = %v, want %v\n%s", ref, err == nil, want, res.stdout)
		}
	}
}

// TestCleanImagesDuringAStudy: issue 42 finding 4, clean --images while a
// study runs removed the image its next runs needed, and they were stored
// as failed. The study's images are held: clean says it keeps them, and
// every run succeeds.
func TestCleanImagesDuringAStudy(t *testing.T) {
	r := startSlowRun(t, nil, "i.db", "7", true, "--monitor-interval", "0")
	res := runOK(t, r.dir, "clean", "--images")
	if !regexp.MustCompile(`kept image boxtax-worker:[0-9a-f]{12}: a running boxtax \(pid ` + strconv.Itoa(r.pid) + `\) uses it`).MatchString(res.stdout) {
		t.Errorf("clean --images does not say it keeps the running study's image:\n%s", res.stdout)
	}
	if err := r.cmd.Wait(); err != nil {
		t.Fatalf("the study beside clean --images: %v\n%s", err, r.stderr.String())
	}
	if got := runsByStatus(t, r.db); got["ok"] != 6 || len(got) != 1 {
		t.Errorf("runs of the study beside clean --images: %v, want 6 ok", got)
	}
	integrityOK(t, r.db)
}

// TestKilledRootlessPodmanStudyIsCleaned: issue 42 finding 6, a
// podman-rootless study killed with SIGKILL left its container, its own
// podman system service (run as the rootless user, which the parent-death
// signal does not reach) and its directory /tmp/boxtax-podman-N, and clean
// removed none of them. Now clean removes all three.
func TestKilledRootlessPodmanStudyIsCleaned(t *testing.T) {
	requireEnvironment(t, "podman-rootless", "rootless Podman")
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	cmd, stderr := startRun(t, dir, nil, testdata(t, "podman-rootless-slow.yaml"), "--db", db, "--settle", "0", "--monitor-interval", "0")
	pid := cmd.Process.Pid
	host, _ := os.Hostname()
	label := map[string]string{ControllerLabel: fmt.Sprintf("%s/%d", host, pid)}
	var svcDir string
	var svc *docker.Client
	waitFor(t, 120*time.Second, "a running rootless Podman container", stderr, func() bool {
		if svcDir == "" {
			svcDir = podmanDirOf(pid)
			return false
		}
		if svc == nil {
			svc, _ = docker.NewClient("unix://" + filepath.Join(svcDir, "podman.sock"))
			return false
		}
		list, err := svc.ContainerList(context.Background(), label)
		return err == nil && len(list) > 0
	})
	cmd.Process.Kill()
	cmd.Wait()
	// clean at once, as a user may: the service may still be ending (its
	// parent-death signal on its way), and clean must cope with that too.
	if procs := processesNaming(svcDir); len(procs) == 0 {
		t.Logf("no process of the service at %s outlived boxtax: only the directory and container are left to clean", svcDir)
	}
	res := runOK(t, dir, "clean")
	if !strings.Contains(res.stdout, svcDir) {
		t.Errorf("clean does not say it removed %s:\n%s", svcDir, res.stdout)
	}
	if _, err := os.Stat(svcDir); err == nil {
		t.Errorf("%s is left after clean", svcDir)
	}
	if procs := processesNaming(svcDir); len(procs) > 0 {
		t.Errorf("process(es) of the killed study's Podman service left after clean: %v", procs)
	}
	if left := rootlessContainers(t, label); left != "" {
		t.Errorf("the killed study's rootless container(s) left after clean:\n%s", left)
	}
}

// podmanDirOf is the directory of the Podman service the boxtax process
// pid started ("" until it has one): its controller file names pid.
func podmanDirOf(pid int) string {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "boxtax-podman-*"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "controller"))
		if err == nil && strings.Contains(string(b), ":"+strconv.Itoa(pid)+":") {
			return d
		}
	}
	return ""
}

// processesNaming are the processes whose command line names dir.
func processesNaming(dir string) []string {
	var out []string
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range cmdlines {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), dir+"/") {
			out = append(out, filepath.Base(filepath.Dir(p))+" "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

// rootlessContainers lists, as the rootless user sees them, the containers
// with the label.
func rootlessContainers(t *testing.T, label map[string]string) string {
	t.Helper()
	user := os.Getenv("BOXTAX_PODMAN_USER")
	if user == "" {
		user = "boxtax-rootless"
	}
	uid, err := exec.Command("id", "-u", user).Output()
	if err != nil {
		t.Fatalf("id -u %s: %v", user, err)
	}
	args := []string{"-u", user, "--", "env", "XDG_RUNTIME_DIR=/run/user/" + strings.TrimSpace(string(uid)), "podman", "ps", "-a", "--format", "{{.ID}} {{.Names}}"}
	for k, v := range label {
		args = append(args, "--filter", "label="+k+"="+v)
	}
	cmd := exec.Command("runuser", args...)
	cmd.Dir = "/"
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("podman ps as %s: %v\n%s", user, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestKilledNativeRunLeavesNothingAfterClean: issue 42 finding 17, after
// kill -9 of a study in a native run, clean left the worker's empty
// scratch directory (/tmp/boxtax-NNN); nor may the study's record of the
// images it held stay. After clean nothing of boxtax's is left in TMPDIR.
func TestKilledNativeRunLeavesNothingAfterClean(t *testing.T) {
	tmp := t.TempDir()
	r := startSlowRun(t, []string{"TMPDIR=" + tmp}, "n.db", "11", false, "--monitor-interval", "0")
	waitFor(t, 60*time.Second, "a native worker's scratch directory", r.stderr, func() bool {
		return len(tmpLeftovers(t, tmp)) > 0
	})
	r.cmd.Process.Kill()
	r.cmd.Wait()
	time.Sleep(500 * time.Millisecond) // the worker dies with its controller (parent-death signal)
	t.Setenv("TMPDIR", tmp)            // clean runs in-process
	res := runOK(t, r.dir, "clean")
	if left := tmpLeftovers(t, tmp); len(left) > 0 {
		t.Errorf("left in TMPDIR after clean: %v\n%s", left, res.stdout)
	}
}

// TestInterruptedCheckKeepsNoDatabase: issue 42 finding 17, Ctrl-C during
// the check runs said "nothing is kept" and left an empty database.
func TestInterruptedCheckKeepsNoDatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "check.db")
	cmd, stderr, waited := startBoxtax(t, "run", "--cmd", "sleep 30", "--envs", "native", "--reps", "2", "--warmup", "0",
		"--settle", "0", "--monitor-interval", "0", "--db", db)
	waitFor(t, 60*time.Second, "the check runs", stderr, func() bool {
		return strings.Contains(stderr.String(), "checking the command")
	})
	interruptWithin(t, cmd, stderr, waited, 300*time.Millisecond, 30*time.Second, "a study in its check runs")
	if !strings.Contains(stderr.String(), "nothing is kept") {
		t.Errorf("an interrupted check does not say nothing is kept:\n%s", stderr.String())
	}
	left, _ := filepath.Glob(db + "*")
	if len(left) > 0 {
		t.Errorf("an interrupted check left %v", left)
	}
}
