package docker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// ImportOptions say how to make an image of a root filesystem archive.
type ImportOptions struct {
	Tag        string            // name:tag of the image
	Labels     map[string]string // labels set on the image
	Entrypoint []string          // the image's ENTRYPOINT, if any
	Cmd        []string          // the image's CMD, if any
	Message    string            // the history comment, e.g. "boxtax worker image"
}

// ImageImport makes an image whose one layer is the tar archive rootfs (the
// files at the root of the image: modes, owners, symlinks and all) and
// whose configuration comes from o, with POST /images/create?fromSrc=-
// (docker import). Unlike a build it needs no builder, so it works alike
// on the classic builder, BuildKit, the containerd image store and
// Podman's Docker-compatible API. It returns the image's id.
func (c *Client) ImageImport(ctx context.Context, rootfs io.Reader, o ImportOptions) (string, error) {
	// The whole name:tag goes in repo: Podman 4 ignores the tag parameter.
	q := url.Values{"fromSrc": {"-"}, "repo": {o.Tag}}
	changes, err := o.changes()
	if err != nil {
		return "", fmt.Errorf("importing image %s: %w", o.Tag, err)
	}
	for _, ch := range changes {
		q.Add("changes", ch)
	}
	if o.Message != "" {
		q.Set("message", o.Message)
	}
	header := http.Header{"Content-Type": {"application/x-tar"}}
	resp, err := c.do(ctx, http.MethodPost, "/images/create", q, rootfs, header)
	if err != nil {
		return "", fmt.Errorf("importing image %s: %w", o.Tag, err)
	}
	defer resp.Body.Close()
	if err := readProgress(resp.Body); err != nil {
		return "", fmt.Errorf("importing image %s: %w", o.Tag, err)
	}
	img, err := c.ImageInspect(ctx, o.Tag)
	if err != nil {
		return "", fmt.Errorf("the image %s was imported but cannot be inspected: %w", o.Tag, err)
	}
	return img.ID, nil
}

// changes are the Dockerfile instructions that configure the imported
// image, labels in name order so that the same options give the same list.
func (o ImportOptions) changes() ([]string, error) {
	var out []string
	if len(o.Entrypoint) > 0 {
		j, err := json.Marshal(o.Entrypoint)
		if err != nil {
			return nil, err
		}
		out = append(out, "ENTRYPOINT "+string(j))
	}
	if len(o.Cmd) > 0 {
		j, err := json.Marshal(o.Cmd)
		if err != nil {
			return nil, err
		}
		out = append(out, "CMD "+string(j))
	}
	keys := make([]string, 0, len(o.Labels))
	for k := range o.Labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := o.Labels[k]
		// Docker reads escapes in a quoted word, Podman 4 keeps them as
		// they are: so no character that needs one.
		if strings.ContainsAny(k+v, "\"\\$\n\r") {
			return nil, fmt.Errorf("label %s=%q: an image label boxtax makes may not hold a double quote, backslash, "+
				"dollar sign or line break (engines read them differently); rename the program or file", k, v)
		}
		out = append(out, fmt.Sprintf(`LABEL "%s"="%s"`, k, v))
	}
	return out, nil
}

// progressMessage is one line of the daemon's JSON progress stream.
type progressMessage struct {
	Status      string `json:"status"`
	Error       string `json:"error"`
	ErrorDetail *struct {
		Message string `json:"message"`
	} `json:"errorDetail"`
}

// readProgress follows a JSON progress stream to its end and returns the
// error one of its lines carries, if any.
func readProgress(r io.Reader) error {
	dec := json.NewDecoder(r)
	for {
		var m progressMessage
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading the daemon's progress: %w", err)
		}
		if m.ErrorDetail != nil && m.ErrorDetail.Message != "" {
			return fmt.Errorf("docker daemon: %s", strings.TrimSpace(m.ErrorDetail.Message))
		}
		if m.Error != "" {
			return fmt.Errorf("docker daemon: %s", strings.TrimSpace(m.Error))
		}
	}
}
