package golang

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

// FuzzExtract checks that Extract never panics (a recovered panic shows as
// an internalError problem) and keeps its record invariants on any bytes:
// binary data, invalid UTF-8, truncated files. It is seeded with the
// fixture files, whole and cut in half.
func FuzzExtract(f *testing.F) {
	for _, rel := range fixtureFiles(f) {
		data, err := os.ReadFile(filepath.Join(fixtureDir, rel))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(filepath.Base(rel), data)
		f.Add(filepath.Base(rel), data[:len(data)/2])
	}
	f.Add("x_test.go", []byte("package p\nfunc TestX(t *testing.T) { t.Run(\"\\xff\", nil) }"))
	f.Add("x_test.go", []byte{0xff, 0xfe, 0, 'p'})
	all := &Extractor{AllPlatforms: true}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		for _, e := range []*Extractor{Default, all} {
			res := e.Extract(&lang.File{Rel: name, Data: data})
			for _, p := range res.Problems {
				if strings.Contains(p.Message, internalError) {
					t.Fatalf("%s", p.Message)
				}
			}
			seen := map[string]bool{}
			for _, r := range res.Tests {
				if seen[r.Name] {
					t.Fatalf("duplicate record %q", r.Name)
				}
				seen[r.Name] = true
				if r.Parent != "" && !seen[r.Parent] {
					t.Fatalf("%q listed before its parent %q", r.Name, r.Parent)
				}
			}
		}
	})
}

// FuzzNamesFastPaths checks rewrite's and runPattern's fast paths against
// the plain definitions they replace: testing's rune-by-rune rewrite, and
// the pattern built by splitting the name on "/" and quoting each part.
func FuzzNamesFastPaths(f *testing.F) {
	for _, s := range []string{"", "/", "a/", "TestX/case_1#01", "with space", "tab\there", "é/ü", "\x00\x7f", "a.b*c/[d]", "\u2028", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want []byte
		for _, r := range s {
			switch {
			case isSpace(r):
				want = append(want, '_')
			case !strconv.IsPrint(r):
				q := strconv.QuoteRune(r)
				want = append(want, q[1:len(q)-1]...)
			default:
				want = append(want, string(r)...)
			}
		}
		if got := rewrite(s); got != string(want) {
			t.Fatalf("rewrite(%q) = %q, want %q", s, got, want)
		}
		parts := strings.Split(s, "/")
		for i, p := range parts {
			parts[i] = "^" + regexp.QuoteMeta(p) + "$"
		}
		if got, want := runPattern(s), strings.Join(parts, "/"); got != want {
			t.Fatalf("runPattern(%q) = %q, want %q", s, got, want)
		}
	})
}
