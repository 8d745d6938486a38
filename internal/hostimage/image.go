package hostimage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"

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
	e.Source, e.Size, e.ModTime = src, fi.Size(), fi.ModTime()
	return nil
}

// ImageOptions say how to make an image of a set.
type ImageOptions struct {
	Tag        string            // name:tag
	Labels     map[string]string // set on the image
	Entrypoint []string          // the image's ENTRYPOINT, if any
	Cmd        []string          // the image's CMD, if any
}

// EnsureImage returns the image tagged o.Tag, importing the set's archive
// (docker import, which every engine supports) unless the engine has it;
// built says whether it was made now. The tag should name the content
// (Hash), so that an image found is the same.
func EnsureImage(ctx context.Context, c *docker.Client, s *Set, o ImageOptions) (img docker.Image, built bool, err error) {
	img, err = c.ImageInspect(ctx, o.Tag)
	switch {
	case err == nil:
		return img, false, nil
	case !docker.IsNotFound(err):
		return docker.Image{}, false, fmt.Errorf("looking for the image %s: %w", o.Tag, err)
	}
	labels := maps.Clone(o.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[LabelName] = o.Tag // what OwnTags knows boxtax's image by
	if err := importSet(ctx, c, s, docker.ImportOptions{Tag: o.Tag, Labels: labels,
		Entrypoint: o.Entrypoint, Cmd: o.Cmd, Message: MessageHostPrograms}); err != nil {
		return docker.Image{}, false, err
	}
	img, err = c.ImageInspect(ctx, o.Tag)
	if err != nil {
		return docker.Image{}, false, fmt.Errorf("the image %s was imported but cannot be inspected: %w", o.Tag, err)
	}
	return img, true, nil
}

// errImportEnded stops the archive's writer when the import ended first.
var errImportEnded = errors.New("the engine's import ended")

// importSet streams the set's archive to the engine as it is written,
// file by file from the host, so that boxtax holds no copy of it: a 256 MiB
// --file no longer costs 700 MB of memory (issue 42, 18). An error writing
// the archive (a file that changed) is the one returned.
func importSet(ctx context.Context, c *docker.Client, s *Set, o docker.ImportOptions) error {
	pr, pw := io.Pipe()
	wrote := make(chan error, 1)
	go func() {
		err := s.WriteTar(pw)
		pw.CloseWithError(err)
		wrote <- err
	}()
	_, importErr := c.ImageImport(ctx, pr, o)
	pr.CloseWithError(errImportEnded)
	if err := <-wrote; err != nil && !errors.Is(err, errImportEnded) {
		return err
	}
	return importErr
}
