package report

import "strings"

// markdownEscaper makes text safe inside a Markdown table cell.
var markdownEscaper = strings.NewReplacer("|", `\|`, "~", `\~`, "\n", " ", "<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`, "`", "\\`")

// MarkdownEscape makes text safe inside a Markdown table cell.
func MarkdownEscape(s string) string { return markdownEscaper.Replace(s) }

// latexEscaper makes text safe in LaTeX's text mode, in one pass (so the
// braces of \textbackslash{} are not escaped again).
var latexEscaper = strings.NewReplacer(
	`\`, `\textbackslash{}`, `{`, `\{`, `}`, `\}`, `$`, `\$`, `&`, `\&`, `#`, `\#`,
	`^`, `\textasciicircum{}`, `_`, `\_`, `%`, `\%`, `~`, `\textasciitilde{}`,
	`<`, `\textless{}`, `>`, `\textgreater{}`, `|`, `\textbar{}`, "\n", " ", "\r", " ")

// TeXEscape makes text safe in LaTeX: its special characters typeset as
// themselves.
func TeXEscape(s string) string { return latexEscaper.Replace(s) }

// OneLine keeps text on one line, as a LaTeX comment or a table cell must be.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
