package mutbench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A Site is one mutation: the text Old at byte offset Off of File, on one
// line, replaced by New. Op is its operator's class: "cmp" (== and !=, <
// and >=, ...), "logic" (&& and ||), "arith" (binary + and -), "const"
// (0 and 1, n to n+1), "bool" (true and false) or "return" (a returned
// value replaced by its zero).
type Site struct {
	File string `json:"file"` // relative to the project, slash-separated
	Line int    `json:"line"`
	Off  int    `json:"offset"`
	Old  string `json:"old"`
	New  string `json:"new"`
	Op   string `json:"op"`
}

// String renders s as "file.go:12 `<` → `>=`".
func (s Site) String() string {
	return fmt.Sprintf("%s:%d `%s` → `%s`", s.File, s.Line, s.Old, s.New)
}

// Apply writes the mutated file under root and returns a function that
// writes the original back. It refuses a site whose text is not at its
// offset (the file changed since the sites were found).
func (s Site) Apply(root string) (restore func() error, err error) {
	path := filepath.Join(root, filepath.FromSlash(s.File))
	orig, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if s.Off < 0 || s.Off+len(s.Old) > len(orig) || string(orig[s.Off:s.Off+len(s.Old)]) != s.Old {
		return nil, fmt.Errorf("mutate %s: %q is not at offset %d", s, s.Old, s.Off)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Write(orig[:s.Off])
	b.WriteString(s.New)
	b.Write(orig[s.Off+len(s.Old):])
	if err := os.WriteFile(path, b.Bytes(), st.Mode().Perm()); err != nil {
		return nil, err
	}
	return func() error { return os.WriteFile(path, orig, st.Mode().Perm()) }, nil
}

// flips are the operator swaps, the same in every language.
var flips = map[string]struct{ to, op string }{
	"==": {"!=", "cmp"}, "!=": {"==", "cmp"}, "===": {"!==", "cmp"}, "!==": {"===", "cmp"},
	"<": {">=", "cmp"}, ">=": {"<", "cmp"}, ">": {"<=", "cmp"}, "<=": {">", "cmp"},
	"&&": {"||", "logic"}, "||": {"&&", "logic"},
	"+": {"-", "arith"}, "-": {"+", "arith"},
	"true": {"false", "bool"}, "false": {"true", "bool"},
	"True": {"False", "bool"}, "False": {"True", "bool"},
	"and": {"or", "logic"}, "or": {"and", "logic"},
}

// bumpInt mutates a decimal integer literal: 0 → 1, 1 → 0, n → n+1.
// Other numbers (hex, floats, suffixes, separators) are left alone.
func bumpInt(text string) (string, bool) {
	if text == "" || strings.Trim(text, "0123456789") != "" || len(text) > 1 && text[0] == '0' {
		return "", false
	}
	switch text {
	case "0":
		return "1", true
	case "1":
		return "0", true
	}
	n, err := strconv.ParseUint(text, 10, 63)
	if err != nil {
		return "", false
	}
	return strconv.FormatUint(n+1, 10), true
}
