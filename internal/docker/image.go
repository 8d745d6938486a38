package docker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	Config       struct {
		Labels map[string]string `json:"Labels"`
	} `json:"Config"`
}

// ImageInspect returns the image with the given name or id. A missing image
// gives an error for which IsNotFound is true.
func (c *Client) ImageInspect(ctx context.Context, ref string) (Image, error) {
	var img Image
	err := c.getJSON(ctx, "/images/"+escapeRef(ref)+"/json", nil, &img)
	return img, err
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

// BuildOptions say how to build an image.
type BuildOptions struct {
	Tags       []string          // name:tag references to give the image
	Labels     map[string]string // labels set on the image
	Dockerfile string            // path of the Dockerfile in the context; default "Dockerfile"
	Progress   io.Writer         // if not nil, receives the builder's text output
}

// buildMessage is one line of the build's JSON progress stream.
type buildMessage struct {
	Stream      string `json:"stream"`
	Error       string `json:"error"`
	ErrorDetail *struct {
		Message string `json:"message"`
	} `json:"errorDetail"`
	Aux json.RawMessage `json:"aux"`
}

// BuildImage builds an image from a tar archive holding the Dockerfile and
// the files it uses, with the classic builder (which needs no BuildKit
// daemon features), and returns the image id. A failing step gives an
// error with the builder's message.
func (c *Client) BuildImage(ctx context.Context, tarContext io.Reader, o BuildOptions) (string, error) {
	q := url.Values{"version": {"1"}, "rm": {"1"}, "forcerm": {"1"}}
	for _, t := range o.Tags {
		q.Add("t", t)
	}
	if o.Dockerfile != "" {
		q.Set("dockerfile", o.Dockerfile)
	}
	if len(o.Labels) > 0 {
		b, err := json.Marshal(o.Labels)
		if err != nil {
			return "", fmt.Errorf("encoding image labels: %w", err)
		}
		q.Set("labels", string(b))
	}
	header := http.Header{"Content-Type": {"application/x-tar"}}
	resp, err := c.do(ctx, http.MethodPost, "/build", q, tarContext, header)
	if err != nil {
		return "", fmt.Errorf("building image %s: %w", strings.Join(o.Tags, ", "), err)
	}
	defer resp.Body.Close()
	id, err := readBuildStream(resp.Body, o.Progress)
	if err != nil {
		return "", fmt.Errorf("building image %s: %w", strings.Join(o.Tags, ", "), err)
	}
	return id, nil
}

// readBuildStream follows the build's progress and returns the image id the
// builder announces, or the error one of its lines carries.
func readBuildStream(r io.Reader, progress io.Writer) (string, error) {
	dec := json.NewDecoder(r)
	var id string
	for {
		var m buildMessage
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("reading the build output: %w", err)
		}
		if m.ErrorDetail != nil && m.ErrorDetail.Message != "" {
			return "", fmt.Errorf("docker daemon: %s", strings.TrimSpace(m.ErrorDetail.Message))
		}
		if m.Error != "" {
			return "", fmt.Errorf("docker daemon: %s", strings.TrimSpace(m.Error))
		}
		if progress != nil && m.Stream != "" {
			_, _ = io.WriteString(progress, m.Stream)
		}
		var aux struct {
			ID string `json:"ID"`
		}
		if len(m.Aux) > 0 && json.Unmarshal(m.Aux, &aux) == nil && aux.ID != "" {
			id = aux.ID
		}
	}
	if id == "" {
		return "", errors.New("the builder ended without naming the image it built; see the daemon's log (journalctl -u docker)")
	}
	return id, nil
}
