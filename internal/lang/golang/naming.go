package golang

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// naming is go test's ID rules: a subtest's name follows its parent's
// after "/", and a test only the runner reported is known by its package
// (Scope, the import path), whose folder stands for its file until a file
// of the folder is found declaring it.
type naming struct {
	lang.GenericNaming
	l *lang.Listing
}

func newNaming(l *lang.Listing) lang.Naming {
	return naming{lang.GenericNaming{Seps: []string{"/"}}, l}
}

// TopFile implements lang.Naming: the file of the package's folder that
// declares the test, else the folder.
func (n naming) TopFile(r lang.Reported) string {
	dir := n.packageDir(r)
	if f := n.declaringFile(dir, r.Name); f != "" {
		return f
	}
	return dir
}

// Top implements lang.Naming: the package of the file's (or folder's)
// listed tests, else the import path of its folder.
func (n naming) Top(f lang.ListedFile, key string, first *testdex.Test) (scope, name string) {
	if first != nil {
		return first.Scope, key
	}
	return n.folderImportPath(f), key
}

// declaringFile finds, among the candidate files of a package folder,
// the one declaring a test the listing does not hold (a file a build
// constraint left out of the listing, run with -tags): the first whose
// source has "func NAME(x *T)" for the test's top-level name, the
// parameter a *T, *B or *F, or none for an example (TestMain(m
// *testing.M) is no test). "" when none does. It reads files only for
// tests the runner alone reported.
func (n naming) declaringFile(dir, name string) string {
	top, _, _ := strings.Cut(name, "/")
	decl := []byte("func " + top + "(")
	for _, f := range n.l.Files {
		if f.Framework != n.l.Framework || path.Dir(f.Path) != dir {
			continue
		}
		data, err := os.ReadFile(filepath.Join(n.l.Root, filepath.FromSlash(f.Path)))
		if err == nil && declaresTest(data, decl) {
			return f.Path
		}
	}
	return ""
}

// declaresTest reports whether src holds decl ("func NAME(") with no
// parameter or one whose type is a pointer to a T, B or F.
func declaresTest(src, decl []byte) bool {
	for {
		i := bytes.Index(src, decl)
		if i < 0 {
			return false
		}
		src = src[i+len(decl):]
		params, _, ok := bytes.Cut(src, []byte(")"))
		params = bytes.TrimSpace(params)
		if ok && (len(params) == 0 || bytes.Contains(params, []byte("*")) && bytes.ContainsAny(params[len(params)-1:], "TBF")) {
			return true // an example, or a test, benchmark or fuzz target
		}
	}
}

// packageDir is the root-relative folder of a Go package: that of a
// listed record of the package, else the import path under the module.
func (n naming) packageDir(r lang.Reported) string {
	for i := range n.l.Tests {
		t := &n.l.Tests[i]
		if t.Framework == n.l.Framework && t.Project == r.Project && t.Scope == r.Scope {
			return path.Dir(t.File)
		}
	}
	for _, p := range n.l.Projects {
		if p.Dir == r.Project && p.Name != "" {
			if rest, ok := strings.CutPrefix(r.Scope, p.Name+"/"); ok {
				return lang.RootRel(r.Project, rest)
			}
		}
	}
	return r.Project
}

// folderImportPath is the import path of a Go package folder without
// listed tests: the module path and the folder under the module.
func (n naming) folderImportPath(f lang.ListedFile) string {
	dir := f.Path
	if path.Ext(dir) == ".go" {
		dir = path.Dir(dir)
	}
	for _, p := range n.l.Projects {
		if p.Dir != f.Project || p.Name == "" {
			continue
		}
		rel := dir
		if p.Dir != "." {
			rel = strings.TrimPrefix(strings.TrimPrefix(dir, p.Dir), "/")
		}
		if rel == "" || rel == "." {
			return p.Name
		}
		return p.Name + "/" + rel
	}
	return ""
}
