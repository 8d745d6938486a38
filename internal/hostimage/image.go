package hostimage

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/boxtax/boxtax/internal/docker"
)

// AddHostFile adds the host's file src at the image path dst (replacing an
// entry there), e.g. the boxtax binary at /boxtax.
func (s *Set) AddHostFile(dst, src string, mode fs.FileMode) error {
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", src)
	}
	s.AddData(dst, nil, mode, RoleExtra)
	e := s.entries[dst]
	e.Source, e.Size = src, fi.Size()
	return nil
}

// ImageOptions say how to make an image of a set.
type ImageOptions struct {
	Tag        string            // name:tag
	Labels     map[string]string // set on the image
	Entrypoint []string          // the image's ENTRYPOINT, if any
	Cmd        []string          // the image's CMD, if any
}

// Dockerfile is the build file of an image of the set: the archive added at
// the root of an empty image, which keeps every mode, owner and symlink.
func (o ImageOptions) Dockerfile() string {
	var b strings.Builder
	b.WriteString("FROM scratch\nADD rootfs.tar /\n")
	if len(o.Entrypoint) > 0 {
		j, _ := json.Marshal(o.Entrypoint)
		fmt.Fprintf(&b, "ENTRYPOINT %s\n", j)
	}
	if len(o.Cmd) > 0 {
		j, _ := json.Marshal(o.Cmd)
		fmt.Fprintf(&b, "CMD %s\n", j)
	}
	return b.String()
}

// BuildContext is the tar archive sent to the builder: the Dockerfile and
// rootfs.tar, the set's archive. The same set gives the same bytes.
func (s *Set) BuildContext(o ImageOptions) ([]byte, error) {
	var rootfs bytes.Buffer
	if err := s.WriteTar(&rootfs); err != nil {
		return nil, err
	}
	dockerfile := o.Dockerfile()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range []struct {
		name string
		data []byte
	}{{"Dockerfile", []byte(dockerfile)}, {"rootfs.tar", rootfs.Bytes()}} {
		hdr := &tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.data)), ModTime: epoch, Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, fmt.Errorf("making the image build context: %w", err)
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, fmt.Errorf("making the image build context: %w", err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("making the image build context: %w", err)
	}
	return buf.Bytes(), nil
}

// EnsureImage returns the image tagged o.Tag, building it from the set
// unless the engine has it; built says whether it was built now. The tag
// should name the content (Hash), so that an image found is the same.
func EnsureImage(ctx context.Context, c *docker.Client, s *Set, o ImageOptions) (img docker.Image, built bool, err error) {
	img, err = c.ImageInspect(ctx, o.Tag)
	switch {
	case err == nil:
		return img, false, nil
	case !docker.IsNotFound(err):
		return docker.Image{}, false, fmt.Errorf("looking for the image %s: %w", o.Tag, err)
	}
	tarContext, err := s.BuildContext(o)
	if err != nil {
		return docker.Image{}, false, err
	}
	if _, err := c.BuildImage(ctx, bytes.NewReader(tarContext), docker.BuildOptions{Tags: []string{o.Tag}, Labels: o.Labels}); err != nil {
		return docker.Image{}, false, err
	}
	img, err = c.ImageInspect(ctx, o.Tag)
	if err != nil {
		return docker.Image{}, false, fmt.Errorf("the image %s was built but cannot be inspected: %w", o.Tag, err)
	}
	return img, true, nil
}
