package docker

import (
	"context"
	"net/url"
)

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
