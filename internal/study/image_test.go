package study

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/testenv"
)

// oneFileImage imports an image of one file into Docker with o and
// removes it when the test ends.
func oneFileImage(t *testing.T, c *docker.Client, o docker.ImportOptions, arch string) string {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	body := []byte("boxtax test\n")
	_ = tw.WriteHeader(&tar.Header{Name: "etc/boxtax-test", Mode: 0o644, Size: int64(len(body))})
	_, _ = tw.Write(body)
	_ = tw.Close()
	o.Tag = fmt.Sprintf("boxtax-test-image-study:%d-%s", os.Getpid(), strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-")))
	if arch != "" {
		// An engine's import ignores another architecture: load an
		// archive whose config names it, as docker save writes one.
		if err := c.ImageLoad(context.Background(), archiveFor(t, buf.Bytes(), o, arch)); err != nil {
			t.Fatal(err)
		}
	} else if _, err := c.ImageImport(context.Background(), &buf, o); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.ImageRemove(context.Background(), o.Tag, true) })
	return o.Tag
}

// archiveFor is a docker-archive (docker save's format) of one layer,
// the image's config naming arch as its architecture.
func archiveFor(t *testing.T, layer []byte, o docker.ImportOptions, arch string) *bytes.Buffer {
	t.Helper()
	diff := sha256.Sum256(layer)
	config, _ := json.Marshal(map[string]any{
		"architecture": arch, "os": "linux", "config": map[string]any{"Cmd": o.Cmd},
		"rootfs": map[string]any{"type": "layers", "diff_ids": []string{"sha256:" + hex.EncodeToString(diff[:])}},
	})
	manifest, _ := json.Marshal([]map[string]any{{"Config": "config.json", "RepoTags": []string{o.Tag}, "Layers": []string{"layer.tar"}}})
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range []struct {
		name string
		data []byte
	}{{"layer.tar", layer}, {"config.json", config}, {"manifest.json", manifest}} {
		_ = tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.data))})
		_, _ = tw.Write(f.data)
	}
	_ = tw.Close()
	return &buf
}

// TestResolveImagesRefuses: an image with no program of its own and no
// --cmd, and an image for another architecture, are refused before
// anything runs, each saying why and what to do; an image with a program
// gets it as the command, and its id.
func TestResolveImagesRefuses(t *testing.T) {
	c := testenv.DockerIntegration(t)
	other := "arm64"
	if runtime.GOARCH == "arm64" {
		other = "amd64"
	}
	for _, tc := range []struct {
		name  string
		o     docker.ImportOptions
		arch  string // another architecture's image, "": this one's
		cmds  []string
		wants []string // the error's words; none: no error
	}{
		{"no program", docker.ImportOptions{}, "", nil, []string{"has neither an Entrypoint nor a Cmd", "--cmd"}},
		{"no program but --cmd", docker.ImportOptions{}, "", []string{"cat /etc/boxtax-test"}, nil},
		{"another architecture", docker.ImportOptions{Cmd: []string{"true"}}, other,
			nil, []string{"is built for " + other, "qemu", "--platform"}},
		{"its own program", docker.ImportOptions{Entrypoint: []string{"/bin/prog"}, Cmd: []string{"--flag"}}, "", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tag := oneFileImage(t, c, tc.o, tc.arch)
			spec, err := Command{Image: tag, Cmds: tc.cmds}.Spec()
			if err != nil {
				t.Fatal(err)
			}
			err = spec.ResolveImages(context.Background(), env.Options{})
			if len(tc.wants) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				p := spec.Workloads[0].Params
				if id, _ := p["image_id"].(string); !strings.HasPrefix(id, "sha256:") {
					t.Errorf("image_id %v", p["image_id"])
				}
				if tc.cmds == nil && fmt.Sprint(p["cmd"]) != "[/bin/prog --flag]" {
					t.Errorf("cmd %v, want the Entrypoint and Cmd", p["cmd"])
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.wants)
			}
			testenv.Says(t, "the refusal", err.Error(), tc.wants...)
		})
	}
}
