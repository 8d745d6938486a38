package docker

import (
	"bytes"
	"context"
	"testing"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/envtest"
	"github.com/boxtax/boxtax/internal/testenv"
)

// TestImageFor: Docker tells, before it builds it, the image of host files
// a spec's worker runs, how big, and that it is not there yet; after a run
// the same image is there (issue 27: --cmd's image was never mentioned).
func TestImageFor(t *testing.T) {
	const ls = "/bin/ls"
	testenv.RequireTool(t, ls, "coreutils")
	_, opts, labels := setupLabelledDocker(t)
	e := envtest.NewPrepared(t, Environments(), "docker-bridge", opts)
	ctx := context.Background()
	teller, ok := e.(env.ImageTeller)
	if !ok {
		t.Fatal("docker-bridge is no ImageTeller")
	}
	if _, ok, err := teller.ImageFor(ctx, env.Spec{Args: []string{"worker"}}); ok || err != nil {
		t.Errorf("a spec without host programs: ok %v, %v; want no image", ok, err)
	}
	spec := env.Spec{Args: []string{"exec", ls, "--version"}, Labels: labels, HostPrograms: []string{ls}}
	before, ok, err := teller.ImageFor(ctx, spec)
	if err != nil || !ok {
		t.Fatalf("ImageFor = %v, %v", ok, err)
	}
	if before.Exists || before.Bytes < 100_000 || before.Files < 3 {
		t.Errorf("before the run: %+v; want an image not built yet, of the binary, ls and its libraries", before)
	}
	var out, errOut bytes.Buffer
	settings, err := env.Run(ctx, e, spec, &out, &errOut)
	if err != nil {
		t.Fatalf("%v\nstderr: %s", err, errOut.String())
	}
	after, _, err := teller.ImageFor(ctx, spec)
	if err != nil || !after.Exists || after.Tag != before.Tag || settings["image"] != before.Tag {
		t.Errorf("after the run: %+v, %v; the run used %s; want the image told before, there now", after, err, settings["image"])
	}
}
