package docker

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// Image is what ImageInspect reports about an image.
type Image struct {
	ID           string   `json:"Id"` // sha256:...
	RepoTags     []string `json:"RepoTags"`
	Created      string   `json:"Created"`
	SizeBytes    int64    `json:"Size"`
	Architecture string   `json:"Architecture"`
	Os           string   `json:"Os"`
	// Comment is the image's own comment: what docker import was given
	// as its message; an image built or committed from another has its
	// own (Docker: empty). Nil when the engine does not say.
	Comment *string `json:"Comment"`
	Config  struct {
		Labels     map[string]string `json:"Labels"`
		Entrypoint []string          `json:"Entrypoint"`
		Cmd        []string          `json:"Cmd"`
		// Env, WorkingDir, User, ExposedPorts ("1883/tcp") and Volumes
		// (paths) are how the image's program runs (docker image inspect).
		Env          []string            `json:"Env"`
		WorkingDir   string              `json:"WorkingDir"`
		User         string              `json:"User"`
		ExposedPorts map[string]struct{} `json:"ExposedPorts"`
		Volumes      map[string]struct{} `json:"Volumes"`
	} `json:"Config"`
}

// ImageInspect returns the image with the given name or id. A missing image
// gives an error for which IsNotFound is true.
func (c *Client) ImageInspect(ctx context.Context, ref string) (Image, error) {
	var img Image
	err := c.getJSON(ctx, "/images/"+escapeRef(ref)+"/json", nil, &img)
	return img, err
}

// ImageSummary is one line of ImageList.
type ImageSummary struct {
	ID        string            `json:"Id"` // sha256:...
	RepoTags  []string          `json:"RepoTags"`
	SizeBytes int64             `json:"Size"`
	Labels    map[string]string `json:"Labels"`
}

// ImageList lists the images that carry every given label; an empty value
// matches any value of that label.
func (c *Client) ImageList(ctx context.Context, labels map[string]string) ([]ImageSummary, error) {
	return listLabeled(ctx, c, "/images/json", url.Values{}, labels, "images",
		func(img ImageSummary) map[string]string { return img.Labels })
}

// ImageRemove removes an image by name or id, and its untagged parents
// that nothing else uses (as docker rmi does); with force also when stopped
// containers still use it. Removing one of several tags only untags.
func (c *Client) ImageRemove(ctx context.Context, ref string, force bool) error {
	q := url.Values{}
	if force {
		q.Set("force", "1")
	}
	return c.sendJSON(ctx, http.MethodDelete, "/images/"+escapeRef(ref), q, nil, nil)
}

// escapeRef escapes an image reference for a URL path, keeping the slashes
// of names like registry.example.com/team/image:tag, as the daemon expects.
func escapeRef(ref string) string {
	parts := strings.Split(ref, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

// ImageTag gives the image ref (name or id) the further name repo:tag, as
// docker tag does.
func (c *Client) ImageTag(ctx context.Context, ref, repo, tag string) error {
	return c.sendJSON(ctx, http.MethodPost, "/images/"+escapeRef(ref)+"/tag", url.Values{"repo": {repo}, "tag": {tag}}, nil, nil)
}
