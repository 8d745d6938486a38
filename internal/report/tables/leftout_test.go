package tables

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/store"
)

// TestEveryTableSaysWhatWasLeftOut is issue 42 item 8: an environment that
// --skip-unavailable left out is said, with why, in every text output (the
// LaTeX caption said the host alone, so a paper's table of the baseline
// read as the whole study), the environment named once, its reason escaped.
func TestEveryTableSaysWhatWasLeftOut(t *testing.T) {
	host := `{"hostname":"pi4","unavailable_envs":{"docker-bridge":"docker-bridge: the boxtax binary is dynamically linked","podman":"the command failed in its check run: exit 1 & 50% lost"}}`
	r := report.Build(store.Study{ID: 3, Name: "true", HostJSON: host}, report.Layout{Baseline: "native", Envs: []string{"native"}}, nil, nil)
	for _, tt := range []struct {
		format string
		write  func(*strings.Builder, *report.Report) error
		want   string
	}{
		{"table", func(b *strings.Builder, r *report.Report) error { return WriteTable(b, r) },
			"not run here, left out by --skip-unavailable: docker-bridge (the boxtax binary is dynamically linked); podman (the command failed in its check run: exit 1 & 50% lost)"},
		{"markdown", func(b *strings.Builder, r *report.Report) error { return WriteMarkdown(b, r) },
			"left out by --skip-unavailable: docker-bridge (the boxtax binary is dynamically linked)"},
		{"latex", func(b *strings.Builder, r *report.Report) error { return WriteLaTeX(b, r) },
			`left out by --skip-unavailable: docker-bridge (the boxtax binary is dynamically linked); podman (the command failed in its check run: exit 1 \& 50\% lost)`},
	} {
		t.Run(tt.format, func(t *testing.T) {
			var b strings.Builder
			if err := tt.write(&b, r); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tt.want) {
				t.Errorf("want %q in:\n%s", tt.want, b.String())
			}
		})
	}
}
