package walk

import (
	"fmt"
	"os"
	"path"
	"strings"
)

// Explain reports whether Walk(root, opts) would skip the root-relative,
// slash-separated path rel, and why: the reason names the deciding rule
// (".gitignore:3: *.log", "default skip list: node_modules", "hidden: .env"),
// prefixed with "inside DIR: " when a folder above rel is what is skipped;
// a symlink to a folder outside the root is skipped with the reason
// "symlink to TARGET leaves the root; not followed".
// For a kept path the reason is "" or, when a negated pattern re-included
// it, "re-included by SOURCE:LINE: !PATTERN". It makes the same decisions
// as Walk along the one path. The error is non-nil when rel does not exist
// or goes through something other than a folder.
func Explain(root, rel string, opts Options) (skipped bool, reason string, err error) {
	c := newConfig(root, opts)
	rel = path.Clean(strings.TrimPrefix(rel, "./"))
	if rel == "." || rel == "" {
		return false, "", nil
	}
	st, _ := c.enter(nil, "")
	parts := strings.Split(rel, "/")
	cur := ""
	for i, name := range parts {
		cur = path.Join(cur, name)
		fi, err := os.Stat(c.abs(cur))
		if err != nil {
			return false, "", fmt.Errorf("explain %s: %w", rel, err)
		}
		v := c.decide(st, name, cur, fi.IsDir())
		last := i == len(parts)-1
		if msg := c.escapingLink(cur); v.why == keep && fi.IsDir() && msg != "" {
			if last {
				return true, msg, nil
			}
			return true, "inside " + cur + ": " + msg, nil
		}
		switch {
		case v.why != keep && last:
			return true, v.String(), nil
		case v.why != keep:
			return true, "inside " + cur + ": " + v.String(), nil
		case last:
			return false, v.String(), nil
		case !fi.IsDir():
			return false, "", fmt.Errorf("explain %s: %s is not a folder", rel, cur)
		}
		st, _ = c.enter(st, cur)
	}
	return false, "", nil
}

// displayRel shows a root-relative path, "." for the root.
func displayRel(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

// escapingLink returns the message about the root-relative path rel when it
// is a symlink whose real target lies outside the root, else "".
func (c *config) escapingLink(rel string) string {
	if fi, err := os.Lstat(c.abs(rel)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return ""
	}
	return c.escape(c.abs(rel))
}
