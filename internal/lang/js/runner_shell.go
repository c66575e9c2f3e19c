package js

import (
	"path/filepath"
	"strings"
)

// shellWord is one word of a shell command, its quotes removed; glob is
// true when it holds an unquoted *, ? or [ that sh would expand.
type shellWord struct {
	text string
	glob bool
}

// shellCommands splits a package.json script, which npm runs with sh -c,
// into its simple commands: the words between the operators && || ; | &
// ( ) and newlines, with quotes and backslashes resolved as sh does,
// redirections (>file, 2>&1, <file) and comments dropped. Variables ($X)
// are left as written: the script's own environment is not known here.
func shellCommands(script string) [][]shellWord {
	var (
		cmds [][]shellWord
		cur  []shellWord
		w    strings.Builder
		in   bool // a word is open
		glob bool
	)
	endWord := func() {
		if in {
			cur = append(cur, shellWord{text: w.String(), glob: glob})
		}
		w.Reset()
		in, glob = false, false
	}
	endCmd := func() {
		endWord()
		if len(cur) > 0 {
			cmds = append(cmds, dropRedirects(cur))
		}
		cur = nil
	}
	for i := 0; i < len(script); i++ {
		c := script[i]
		switch {
		case c == '\\' && i+1 < len(script):
			i++
			if script[i] != '\n' {
				w.WriteByte(script[i])
				in = true
			}
		case c == '\'':
			j := strings.IndexByte(script[i+1:], '\'')
			if j < 0 {
				j = len(script) - i - 1
			}
			w.WriteString(script[i+1 : i+1+j])
			in, i = true, i+1+j
		case c == '"':
			i = doubleQuoted(script, i+1, &w)
			in = true
		case c == '#' && !in:
			for i < len(script) && script[i] != '\n' {
				i++
			}
			endCmd()
		case c == '&' && (i > 0 && strings.IndexByte("<>", script[i-1]) >= 0 || i+1 < len(script) && script[i+1] == '>'):
			w.WriteByte(c) // part of a redirection: 2>&1, &>file
			in = true
		case strings.IndexByte(";&|()\n", c) >= 0:
			endCmd()
		case c == ' ' || c == '\t' || c == '\r':
			endWord()
		default:
			if strings.IndexByte("*?[", c) >= 0 {
				glob = true
			}
			w.WriteByte(c)
			in = true
		}
	}
	endCmd()
	return cmds
}

// doubleQuoted copies a double-quoted string starting at s[i] (after the
// opening quote) to w, and returns the index of the closing quote.
func doubleQuoted(s string, i int, w *strings.Builder) int {
	for ; i < len(s) && s[i] != '"'; i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		w.WriteByte(s[i])
	}
	return i
}

// dropRedirects removes redirections (>f, >> f, 2>&1, &>f, <f) and their
// targets from a command.
func dropRedirects(ws []shellWord) []shellWord {
	var out []shellWord
	for i := 0; i < len(ws); i++ {
		t := strings.TrimLeft(ws[i].text, "0123456789&")
		if !strings.HasPrefix(t, ">") && !strings.HasPrefix(t, "<") {
			out = append(out, ws[i])
			continue
		}
		if strings.TrimLeft(t, "<>&|") == "" {
			i++ // "> file": the target is the next word
		}
	}
	return out
}

// expandGlobs returns the words' text, each unquoted glob replaced by the
// files it matches under dir, relative to dir and sorted, as sh expands
// them (its * and ** match within one folder); a glob that matches nothing
// stays as written, as in sh, for the framework to expand.
func expandGlobs(dir string, ws []shellWord) []string {
	var out []string
	for _, w := range ws {
		if !w.glob || filepath.IsAbs(w.text) {
			out = append(out, w.text)
			continue
		}
		m, err := filepath.Glob(filepath.Join(dir, filepath.FromSlash(w.text)))
		if err != nil || len(m) == 0 {
			out = append(out, w.text)
			continue
		}
		prefix := ""
		if strings.HasPrefix(w.text, "./") {
			prefix = "./"
		}
		for _, f := range m {
			rel, _ := filepath.Rel(dir, f)
			out = append(out, prefix+filepath.ToSlash(rel))
		}
	}
	return out
}
