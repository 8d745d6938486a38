package docker

import (
	"context"
	"fmt"
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
	q := url.Values{}
	if err := setLabelFilter(q, labels); err != nil {
		return nil, err
	}
	var all []ImageSummary
	if err := c.getJSON(ctx, "/images/json", q, &all); err != nil {
		return nil, fmt.Errorf("listing images: %w", err)
	}
	out := all[:0]
	for _, img := range all {
		if hasLabels(img.Labels, labels) {
			out = append(out, img)
		}
	}
	return out, nil
}
