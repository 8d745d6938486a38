package cli

import (
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/report/formats"
)

// formatByExtension is the format an output file's extension names, as
// hyperfine's --export-* and pandoc read them: -o y.html writes HTML.
var formatByExtension = map[string]string{
	".html": "html", ".htm": "html",
	".md": "markdown", ".markdown": "markdown",
	".csv":  "csv",
	".json": "json",
	".tex":  "latex",
	".txt":  "table",
}

// formatAliases are other names --format takes for a format.
var formatAliases = map[string]string{"md": "markdown", "tex": "latex", "text": "table", "txt": "table", "htm": "html"}

// resolveFormat settles the output format of a command with --format and
// -o (report, compare, analyze, report --by host): --format's aliases (md)
// become their format; without --format, the format is the one -o's
// extension names; a --format that contradicts -o's extension is a usage
// error, as is an extension whose format the command cannot write, and,
// without --format, an extension that names no format (-o r.pdf was written
// as the text table: issue 42 item 14). A file without an extension, or one
// --format names the format of, gets --format's format.
func resolveFormat(fs *flag.FlagSet, format *string, output string, valid []string) error {
	if a, ok := formatAliases[strings.ToLower(*format)]; ok {
		*format = a
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "format" })
	ext := strings.ToLower(filepath.Ext(output))
	byExt, known := formatByExtension[ext]
	if !known {
		if ext == "" || given || databaseKind(output) != "" {
			// A database named by -o is refused by createOutput, which
			// says so.
			return nil
		}
		return usagef("-o %s: no format has the extension %s; %s writes %s: name the file with one of their extensions (%s), or give --format to write one of them to %s",
			output, filepath.Ext(output), fs.Name(), strings.Join(valid, ", "), strings.Join(extensionsOf(valid), " "), output)
	}
	switch {
	case given && *format != byExt:
		return usagef("--format %s contradicts -o %s, whose extension says %s: leave out --format, or name the file %s",
			*format, output, byExt, strings.TrimSuffix(output, filepath.Ext(output))+extensionOf(*format))
	case !slices.Contains(valid, byExt):
		return usagef("-o %s: boxtax %s cannot write %s (its extension's format); formats: %s", output, fs.Name(), byExt, strings.Join(valid, ", "))
	}
	*format = byExt
	return nil
}

// extensionOf is the usual extension of a format's files, or ".out".
func extensionOf(format string) string {
	for _, ext := range []string{".html", ".md", ".csv", ".json", ".tex", ".txt"} {
		if formatByExtension[ext] == format {
			return ext
		}
	}
	return ".out"
}

// extensionsOf is the usual extension of each format's files.
func extensionsOf(formats []string) []string {
	exts := make([]string, len(formats))
	for i, f := range formats {
		exts[i] = extensionOf(f)
	}
	return exts
}

// formatHelp is the help of a --format flag: the formats, and that -o's
// extension chooses one.
func formatHelp(valid []string) string {
	return fmt.Sprintf("output format: %s (md for markdown); without it, -o's extension chooses (.html .md .csv .json .tex .txt)", strings.Join(valid, ", "))
}

// analyzeFormats are the formats of boxtax analyze.
var analyzeFormats = []string{"table", "json"}

// reportFormats are the formats report can write with o's other flags:
// beside a paper's tables, by host, or alone.
func reportFormats(o reportOptions) []string {
	switch {
	case o.By != "":
		return formats.Devices()
	case o.Paper != "":
		return formats.Paper()
	}
	return formats.Report()
}
