package docker

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// ContainerExport streams the root filesystem of a container (created,
// not necessarily started) as a tar archive: GET /containers/{id}/export,
// what docker export does. The caller closes the stream.
func (c *Client) ContainerExport(ctx context.Context, id string) (io.ReadCloser, error) {
	resp, err := c.do(ctx, http.MethodGet, "/containers/"+url.PathEscape(id)+"/export", nil, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("exporting container %s: %w", short(id), err)
	}
	return resp.Body, nil
}

// ImageSave streams an image as a docker-archive tar (GET
// /images/{name}/get, docker save): its config and layers, so an engine
// that loads it has the same image id. The caller closes the stream.
func (c *Client) ImageSave(ctx context.Context, ref string) (io.ReadCloser, error) {
	resp, err := c.do(ctx, http.MethodGet, "/images/"+escapeRef(ref)+"/get", nil, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("saving image %s: %w", ref, err)
	}
	return resp.Body, nil
}

// ImageLoad loads a docker-archive tar (POST /images/load, docker load).
func (c *Client) ImageLoad(ctx context.Context, archive io.Reader) error {
	header := http.Header{"Content-Type": {"application/x-tar"}}
	resp, err := c.do(ctx, http.MethodPost, "/images/load", url.Values{"quiet": {"1"}}, archive, header)
	if err != nil {
		return fmt.Errorf("loading an image: %w", err)
	}
	defer resp.Body.Close()
	if err := readProgress(resp.Body); err != nil {
		return fmt.Errorf("loading an image: %w", err)
	}
	return nil
}
