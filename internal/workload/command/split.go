package command

import (
	"fmt"
	"strings"
)

// Split breaks a command line into words as a POSIX shell would, without
// expanding anything: blanks separate words; 'single quotes' keep
// everything; "double quotes" keep everything but \" \\ \$ \`; a backslash
// outside quotes keeps the next character. There is no shell: `|`, `>`,
// `$VAR` and globs are passed to the program as they are (write
// sh -c '...' for a shell).
func Split(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	const (
		plain = iota
		single
		double
	)
	state := plain
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch state {
		case single:
			if r == '\'' {
				state = plain
			} else {
				cur.WriteRune(r)
			}
		case double:
			switch {
			case r == '"':
				state = plain
			case r == '\\' && i+1 < len(rs) && strings.ContainsRune("\"\\$`", rs[i+1]):
				i++
				cur.WriteRune(rs[i])
			default:
				cur.WriteRune(r)
			}
		default:
			switch {
			case r == ' ' || r == '\t' || r == '\n':
				if inWord {
					words = append(words, cur.String())
					cur.Reset()
					inWord = false
				}
			case r == '\'':
				state, inWord = single, true
			case r == '"':
				state, inWord = double, true
			case r == '\\':
				if i+1 == len(rs) {
					return nil, fmt.Errorf("command %q ends with a lone backslash", line)
				}
				i++
				cur.WriteRune(rs[i])
				inWord = true
			default:
				cur.WriteRune(r)
				inWord = true
			}
		}
	}
	if state != plain {
		return nil, fmt.Errorf("command %q has an unclosed quote", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// Join writes argv as one line that Split reads back to argv.
func Join(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`|&;<>()*?[]#~!{}") {
			out[i] = a
			continue
		}
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

// MaxShort is the longest Short name, in characters.
const MaxShort = 40

// Short names a command in a line of at most MaxShort characters, the
// same every time: its words with every path cut to its last element
// (gzip -c /usr/local/go/bin/go is "gzip -c go"), cut at the end with
// "..." when still longer. Studies and the command factor's levels are
// named so.
func Short(line string) string {
	argv, err := Split(line)
	if err != nil || len(argv) == 0 {
		argv = strings.Fields(line)
	}
	words := make([]string, len(argv))
	for i, a := range argv {
		if words[i] = shortWord(a); strings.ContainsAny(words[i], " \t\n") {
			words[i] = "'" + words[i] + "'"
		}
	}
	s := strings.Join(words, " ")
	if r := []rune(s); len(r) > MaxShort {
		s = strings.TrimRight(string(r[:MaxShort-3]), " ") + "..."
	}
	return s
}

// shortWord is a path's last element (--file=/a/b: --file=b), else the word.
func shortWord(w string) string {
	prefix, path := "", w
	if i := strings.Index(w, "="); i >= 0 && strings.HasPrefix(w[i+1:], "/") {
		prefix, path = w[:i+1], w[i+1:]
	}
	if !strings.Contains(path, "/") || strings.ContainsAny(path, " \t") || strings.Contains(path, "://") {
		return w
	}
	base := path[strings.LastIndex(strings.TrimRight(path, "/"), "/")+1:]
	if base == "" {
		return w
	}
	return prefix + base
}
