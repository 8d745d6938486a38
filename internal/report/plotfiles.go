package report

import (
	"fmt"
	"os"
	"path/filepath"
)

// WritePlots writes every figure as a standalone SVG file into dir (created
// if missing), named by its position and id: 01-overhead.svg, ... It returns
// the paths written.
func WritePlots(dir string, figs []Figure) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating the plot directory: %w", err)
	}
	var paths []string
	for i, f := range figs {
		p := filepath.Join(dir, fmt.Sprintf("%02d-%s.svg", i+1, f.ID))
		data := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + f.SVG
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			return paths, fmt.Errorf("writing plot %s: %w", p, err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}
