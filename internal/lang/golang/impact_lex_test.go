package golang

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestLexer: the declaration graph's lexer cuts every Go file of GOROOT
// into the same declarations as go/scanner: keys, names, receivers,
// references, directives and imports (the hashes aside), for every file
// go/scanner reads without error: every tenth file (-short: fiftieth;
// TESTDEX_LEXER_ALL=1: all, 11 s on 2 cores).
func TestLexer(t *testing.T) {
	src := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(src); err != nil {
		t.Skip("no GOROOT/src")
	}
	n, diffs, every := 0, 0, 10
	if testing.Short() {
		every = 50
	}
	if os.Getenv("TESTDEX_LEXER_ALL") != "" {
		every = 1
	}
	_ = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		n++
		if n%every != 0 {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil || !lexes(data) {
			return nil // invalid Go (testdata): both may err, differently
		}
		want, got := scanDecls("f.go", data), quickDecls("f.go", data)
		want.header, got.header = 0, 0
		for _, d := range append(want.decls, got.decls...) {
			d.hash = 0
		}
		if !reflect.DeepEqual(want, got) && diffs < 5 {
			diffs++
			t.Errorf("%s: the lexer differs from go/scanner\n%s", p, declDiff(want, got))
		}
		return nil
	})
}

func declDiff(want, got *fileDecls) string {
	var b strings.Builder
	if want.pkg != got.pkg || !reflect.DeepEqual(want.imports, got.imports) || !reflect.DeepEqual(want.unnamed, got.unnamed) || want.cgo != got.cgo {
		b.WriteString("header: " + want.pkg + " vs " + got.pkg + "\n")
	}
	for i := 0; i < max(len(want.decls), len(got.decls)); i++ {
		var w, g *decl
		if i < len(want.decls) {
			w = want.decls[i]
		}
		if i < len(got.decls) {
			g = got.decls[i]
		}
		if !reflect.DeepEqual(w, g) {
			b.WriteString("go/scanner: ")
			if w != nil {
				b.WriteString(w.key + " " + strings.Join(w.refs, ","))
			}
			b.WriteString("\nlexer:      ")
			if g != nil {
				b.WriteString(g.key + " " + strings.Join(g.refs, ","))
			}
			b.WriteString("\n")
			break
		}
	}
	return b.String()
}

// lexes reports whether go/scanner reads src without error.
func lexes(src []byte) bool {
	var s scanner.Scanner
	errs := 0
	s.Init(token.NewFileSet().AddFile("f.go", -1, len(src)), src, func(token.Position, string) { errs++ }, scanner.ScanComments)
	for {
		if _, tok, _ := s.Scan(); tok == token.EOF {
			return errs == 0
		}
	}
}
