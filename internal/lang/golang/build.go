package golang

import (
	"bytes"
	"go/build/constraint"
	"io"
	"strings"

	"github.com/testdex/testdex"
)

// constraintInfo is what the build constraints say about one file.
type constraintInfo struct {
	match    bool            // the file is part of the test build
	expr     constraint.Expr // the file's whole constraint, nil when none
	problems []testdex.Problem
}

// constraints decides, with go/build's own MatchFile run on the in-memory
// bytes, whether the file named name is built. It also computes the file's
// whole constraint (file name suffixes and header lines) for the tag.
func (e *Extractor) constraints(name string, data []byte) constraintInfo {
	if !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") {
		return constraintInfo{}
	}
	trimmed, goBuild, head := fileHeader(data)
	nameExpr := fileNameExpr(name)
	if nameExpr == nil && !bytes.Contains(head, []byte("go:build")) && !bytes.Contains(head, []byte("+build")) {
		// No constraint in the name or the header: go/build would build
		// it (MatchFile's only error then, a syntax error in the
		// imports, is dropped below), without reading its imports again.
		return constraintInfo{match: true}
	}
	ctxt := *e.context()
	ctxt.UseAllFiles = e.AllPlatforms
	ctxt.OpenFile = func(string) (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	}
	ctxt.JoinPath = func(elem ...string) string { return strings.Join(elem, "/") }
	ok, err := ctxt.MatchFile(".", name)
	info := constraintInfo{match: ok, expr: andX(nameExpr, headerLinesExpr(trimmed, goBuild))}
	if err != nil && !ok {
		// A header go cannot read (two //go:build lines, a malformed one):
		// go test reports the package as broken, so do we.
		info.problems = []testdex.Problem{{Severity: testdex.SevError, Message: err.Error()}}
	}
	// A syntax error in the header makes MatchFile say match with an error;
	// the parser reports it with its line, so it is dropped here.
	return info
}

// andX joins two optional constraints with &&.
func andX(x, y constraint.Expr) constraint.Expr {
	switch {
	case x == nil:
		return y
	case y == nil:
		return x
	}
	return &constraint.AndExpr{X: x, Y: y}
}

// fileNameExpr is the constraint implied by a _GOOS, _GOARCH or
// _GOOS_GOARCH file name suffix, following go/build's goodOSArchFile: the
// part before the first "_" is ignored and a final "_test" is dropped.
func fileNameExpr(name string) constraint.Expr {
	name, _, _ = strings.Cut(name, ".")
	i := strings.Index(name, "_")
	if i < 0 {
		return nil
	}
	l := strings.Split(name[i:], "_")
	if n := len(l); n > 0 && l[n-1] == "test" {
		l = l[:n-1]
	}
	n := len(l)
	if n >= 2 && knownOS[l[n-2]] && knownArch[l[n-1]] {
		return &constraint.AndExpr{X: &constraint.TagExpr{Tag: l[n-2]}, Y: &constraint.TagExpr{Tag: l[n-1]}}
	}
	if n >= 1 && (knownOS[l[n-1]] || knownArch[l[n-1]]) {
		return &constraint.TagExpr{Tag: l[n-1]}
	}
	return nil
}

// headerExpr is the constraint of the file's header: its //go:build line,
// or else the conjunction of its // +build lines, as go/build reads them.
// A malformed line gives nil (MatchFile reports it).
func headerExpr(data []byte) constraint.Expr {
	trimmed, goBuild, _ := fileHeader(data)
	return headerLinesExpr(trimmed, goBuild)
}

// headerLinesExpr is headerExpr on fileHeader's trimmed and goBuild.
func headerLinesExpr(trimmed, goBuild []byte) constraint.Expr {
	if goBuild != nil {
		x, err := constraint.Parse(string(goBuild))
		if err != nil {
			return nil
		}
		return x
	}
	var x constraint.Expr
	for _, line := range bytes.Split(trimmed, []byte("\n")) {
		text := string(bytes.TrimSpace(line))
		if !constraint.IsPlusBuild(text) {
			continue
		}
		if y, err := constraint.Parse(text); err == nil {
			x = andX(x, y)
		}
	}
	return x
}

// fileHeader is go/build's parseFileHeader (build.go) without its error
// cases: it returns the leading run of // comments and blank lines that
// ends at a blank line (where // +build lines count) and the first
// //go:build line of the header, nil when none. head is the text it read,
// up to and including the first line that is not a comment: no
// constraint line lies after it.
func fileHeader(content []byte) (trimmed, goBuild, head []byte) {
	end, p := 0, content
	ended, inSlashStar := false, false
lines:
	for len(p) > 0 {
		line := p
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line, p = line[:i], p[i+1:]
		} else {
			p = p[len(p):]
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 && !ended {
			end = len(content) - len(p)
			continue
		}
		if !bytes.HasPrefix(line, []byte("//")) {
			ended = true
		}
		if !inSlashStar && goBuild == nil && constraint.IsGoBuild(string(line)) {
			goBuild = line
		}
		for len(line) > 0 {
			if inSlashStar {
				i := bytes.Index(line, []byte("*/"))
				if i < 0 {
					continue lines
				}
				inSlashStar = false
				line = bytes.TrimSpace(line[i+2:])
				continue
			}
			if bytes.HasPrefix(line, []byte("//")) {
				continue lines
			}
			if bytes.HasPrefix(line, []byte("/*")) {
				inSlashStar = true
				line = bytes.TrimSpace(line[2:])
				continue
			}
			break lines
		}
	}
	return content[:end], goBuild, content[:len(content)-len(p)]
}

// knownOS and knownArch are go/build's (internal/syslist) lists of the
// names that file name suffixes recognise.
var knownOS = setOf("aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris wasip1 windows zos")

var knownArch = setOf("386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm")

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
