package docker

import (
	"context"
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
)

// findUserImage is the user's image name on d's engine, with the id wantID
// when that is set (every environment of a study runs the same image).
// An engine that lacks it gets it from the one that has it when d can
// (imageSource: Podman from Docker), so the same bytes, the same id, run
// in both; boxtax pulls nothing from a registry.
func (d *Env) findUserImage(ctx context.Context, name, wantID string) (workerImage, error) {
	user, err := d.client.ImageInspect(ctx, name)
	if docker.IsNotFound(err) && d.imageSource != nil {
		if err = d.moveImage(ctx, name); err == nil {
			user, err = d.client.ImageInspect(ctx, name)
		}
	}
	if docker.IsNotFound(err) {
		return workerImage{}, fmt.Errorf("%s: image %s is not on this engine: pull or load it first (boxtax pulls nothing), or build it (docker build -t %s .)", d.name, name, name)
	} else if err != nil {
		return workerImage{}, fmt.Errorf("%s: image %s: %w", d.name, name, err)
	}
	if wantID != "" && user.ID != wantID {
		return workerImage{}, fmt.Errorf("%s: image %s is %s here, but the study runs %s in every environment: "+
			"give this engine the same image (e.g. docker save %s | podman load) or remove its own %s",
			d.name, name, env.ShortID(user.ID), env.ShortID(wantID), name, name)
	}
	return workerImage{Tag: name, ID: user.ID}, nil
}

// moveImage copies the image name from the engine imageSource answers
// to d's.
func (d *Env) moveImage(ctx context.Context, name string) error {
	src, err := d.imageSource()
	if err != nil {
		return fmt.Errorf("%s: image %s is not on this engine, and the other engine cannot give it: %w", d.name, name, err)
	}
	err = MoveImage(ctx, name, src, d.client, "Docker", d.name)
	if err != nil && !docker.IsNotFound(err) {
		err = fmt.Errorf("%s: %w", d.name, err)
	}
	return err
}

// MoveImage copies the image name from the engine from to the engine to
// (docker save | docker load, or podman save | docker load, through both
// APIs), under the name given there too, and refuses when to loaded it as
// another image id: every environment of a study runs the same bytes. An
// image from isn't holding is returned as IsNotFound.
func MoveImage(ctx context.Context, name string, from, to *docker.Client, fromName, toName string) error {
	img, err := from.ImageInspect(ctx, name)
	if err != nil {
		return err
	}
	archive, err := from.ImageSave(ctx, name)
	if err != nil {
		return fmt.Errorf("moving image %s from %s to %s: %w", name, fromName, toName, err)
	}
	defer archive.Close()
	if err := to.ImageLoad(ctx, archive); err != nil {
		return fmt.Errorf("moving image %s from %s to %s: %w", name, fromName, toName, err)
	}
	if _, err := to.ImageInspect(ctx, img.ID); docker.IsNotFound(err) {
		return fmt.Errorf("image %s is %s in %s, and %s loaded it as another image id (its config changed on the way): "+
			"the study runs one image id in every environment, so give %s the image as built (build it there too) or run only %s's environments",
			name, env.ShortID(img.ID), fromName, toName, toName, fromName)
	} else if err != nil {
		return fmt.Errorf("moving image %s from %s to %s: %w", name, fromName, toName, err)
	}
	if _, err := to.ImageInspect(ctx, name); docker.IsNotFound(err) {
		// The archive named it otherwise (Podman's localhost/NAME): the
		// name the study gives finds it too.
		repo, tag := splitRef(name)
		err = to.ImageTag(ctx, img.ID, repo, tag)
		if err != nil {
			return fmt.Errorf("moving image %s from %s to %s: naming it: %w", name, fromName, toName, err)
		}
	}
	return nil
}

// splitRef is an image name's repository and tag (latest when it has none).
func splitRef(name string) (repo, tag string) {
	if i := strings.LastIndex(name, ":"); i > strings.LastIndex(name, "/") {
		return name[:i], name[i+1:]
	}
	return name, "latest"
}

// ImageSource is Docker's client, the engine Podman gets an image
// from when it lacks one.
func ImageSource(o env.Options) func() (*docker.Client, error) {
	return func() (*docker.Client, error) { return docker.FromGetenv(o.Getenv) }
}

// CheckSpec implements SpecChecker for Docker and Podman: the user's
// image is on the engine; the host programs and files can go into one.
func (d *Env) CheckSpec(ctx context.Context, spec env.Spec) error {
	if spec.Image != "" {
		if _, err := d.userImage(ctx, spec.Image, spec.ImageID); err != nil {
			return err
		}
		return nil
	}
	if err := env.CheckHostFiles(spec); err != nil {
		return fmt.Errorf("%s: %w", d.name, err)
	}
	return nil
}
