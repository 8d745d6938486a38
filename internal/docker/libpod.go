package docker

import (
	"context"
	"fmt"
	"net/url"
)

// Podman's own API (libpod), beside its Docker-compatible one, for what
// the compatible API does not tell: which OCI runtime made a container.
// Podman 4.3's compatible inspect says "oci" for every runtime; libpod's
// says runc, crun or runsc (OCIRuntime). Podman 4.3.1 also ignores a
// runtime asked for per container, in the compatible create
// (HostConfig.Runtime) and in libpod's (oci_runtime) alike: both made
// crun containers on a service whose default is crun (checked here), so
// boxtax chooses the runtime per Podman service (podman --runtime).

// LibpodContainer is what Podman's own inspect says that the compatible
// one does not.
type LibpodContainer struct {
	ID string `json:"Id"`
	// OCIRuntime is the runtime that made the container, by the name or
	// path Podman knows it by (runc, crun, runsc, /usr/sbin/runc).
	OCIRuntime string `json:"OCIRuntime"`
}

// LibpodContainerInspect is Podman's own inspect of a container.
func (c *Client) LibpodContainerInspect(ctx context.Context, id string) (LibpodContainer, error) {
	var out LibpodContainer
	if err := c.getJSON(ctx, "/libpod/containers/"+url.PathEscape(id)+"/json", nil, &out); err != nil {
		return LibpodContainer{}, fmt.Errorf("inspecting container %s through Podman's API: %w", short(id), err)
	}
	return out, nil
}
