package report

import "fmt"

// PlotFile is one figure as a standalone SVG file.
type PlotFile struct {
	Name string // 01-overhead.svg: its position and id
	SVG  []byte
}

// PlotFiles makes every figure a standalone SVG file, named by its position
// and id: 01-overhead.svg, ... The cli writes them where the user asked.
func PlotFiles(figs []Figure) []PlotFile {
	files := make([]PlotFile, 0, len(figs))
	for i, f := range figs {
		files = append(files, PlotFile{
			Name: fmt.Sprintf("%02d-%s.svg", i+1, f.ID),
			SVG:  []byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + f.SVG),
		})
	}
	return files
}
