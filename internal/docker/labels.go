package docker

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
)

// listLabeled lists the objects (containers, images) the daemon's GET path
// answers with query q that carry every given label; an empty value matches
// any value of that label. labelsOf reads an object's labels; what names
// the objects in the error ("containers").
func listLabeled[T any](ctx context.Context, c *Client, path string, q url.Values, labels map[string]string,
	what string, labelsOf func(T) map[string]string) ([]T, error) {
	if err := setLabelFilter(q, labels); err != nil {
		return nil, err
	}
	var all []T
	if err := c.getJSON(ctx, path, q, &all); err != nil {
		return nil, fmt.Errorf("listing %s: %w", what, err)
	}
	out := all[:0]
	for _, o := range all {
		if hasLabels(labelsOf(o), labels) {
			out = append(out, o)
		}
	}
	return out, nil
}

// setLabelFilter adds to q a daemon-side filter for the objects that carry
// the given labels; an empty value matches any value of that label. It
// names one label only (the first in order): Podman 4 answers nothing to a
// filter of several labels, so the caller keeps, of what the daemon sends,
// the objects that carry them all (hasLabels).
func setLabelFilter(q url.Values, labels map[string]string) error {
	if len(labels) == 0 {
		return nil
	}
	want := make([]string, 0, len(labels))
	for k, v := range labels {
		if v == "" {
			want = append(want, k)
		} else {
			want = append(want, k+"="+v)
		}
	}
	sort.Strings(want)
	f, err := json.Marshal(map[string][]string{"label": want[:1]})
	if err != nil {
		return fmt.Errorf("encoding the label filter: %w", err)
	}
	q.Set("filters", string(f))
	return nil
}

// hasLabels reports whether have holds every wanted label; an empty wanted
// value matches any value.
func hasLabels(have, want map[string]string) bool {
	for k, v := range want {
		got, ok := have[k]
		if !ok || v != "" && got != v {
			return false
		}
	}
	return true
}
