package docker

import (
	"context"
	"fmt"

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
// to d's (docker save | podman load, through both APIs).
func (d *Env) moveImage(ctx context.Context, name string) error {
	src, err := d.imageSource()
	if err != nil {
		return fmt.Errorf("%s: image %s is not on this engine, and the other engine cannot give it: %w", d.name, name, err)
	}
	archive, err := src.ImageSave(ctx, name)
	if err != nil {
		if docker.IsNotFound(err) {
			return err
		}
		return fmt.Errorf("%s: moving image %s here: %w", d.name, name, err)
	}
	defer archive.Close()
	if err := d.client.ImageLoad(ctx, archive); err != nil {
		return fmt.Errorf("%s: moving image %s here: %w", d.name, name, err)
	}
	return nil
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
