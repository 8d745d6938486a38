package docker

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
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
	if len(labels) > 0 {
		var want []string
		for k, v := range labels {
			if v == "" {
				want = append(want, k)
			} else {
				want = append(want, k+"="+v)
			}
		}
		sort.Strings(want)
		f, err := json.Marshal(map[string][]string{"label": want})
		if err != nil {
			return nil, fmt.Errorf("encoding the label filter: %w", err)
		}
		q.Set("filters", string(f))
	}
	var out []ImageSummary
	if err := c.getJSON(ctx, "/images/json", q, &out); err != nil {
		return nil, fmt.Errorf("listing images: %w", err)
	}
	return out, nil
}
