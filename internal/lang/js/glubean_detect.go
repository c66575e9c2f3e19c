package js

import (
	"bytes"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// glubeanSkipDirs are the folders the Glubean CLI does not look into for
// test files.
var glubeanSkipDirs = []string{"node_modules", ".git", "dist", "build"}

// denoGlubean reports whether the folder's deno.json or deno.jsonc names
// the Glubean SDK (its import map): such a folder is a Glubean project. A
// Deno project that does not is left to the search upward, so that a
// Deno folder inside a Node project keeps its files in that project.
func (pr *project) denoGlubean(manifests []string) bool {
	for _, m := range []string{"deno.json", "deno.jsonc"} {
		if slices.Contains(manifests, m) && bytes.Contains(pr.read(m), []byte("@glubean/")) {
			return true
		}
	}
	return false
}

// glubean builds Glubean's Setup: the CLI's convention, *.test.ts files
// (outside node_modules, .git, dist and build), of which those importing
// the SDK (@glubean/sdk, jsr:@glubean/sdk, npm:@glubean/sdk) are its;
// testdex.toml's test_match replaces the suffix with globs. Reading the
// import keeps a project's Vitest or Jest files (also *.test.ts) theirs.
func (pr *project) glubean() *lang.Setup {
	o := pr.env.Options[testdex.Glubean]
	globs, bad := compileGlobs(o.TestMatch)
	pr.badPatterns("testdex.toml", "glubean test_match", bad)
	patterns := []string{"**/*.test.ts importing @glubean/sdk"}
	if o.TestMatch != nil {
		patterns = o.TestMatch
	}
	base, read := pr.dir, pr.env.ReadFile
	match := func(rel string) bool {
		for _, seg := range strings.Split(path.Dir(rel), "/") {
			if slices.Contains(glubeanSkipDirs, seg) {
				return false
			}
		}
		if o.TestMatch != nil {
			if !globs.match(rel) {
				return false
			}
		} else if !strings.HasSuffix(rel, ".test.ts") {
			return false
		}
		data, err := read(filepath.Join(base, filepath.FromSlash(rel)))
		return err == nil && importsGlubean(data)
	}
	return &lang.Setup{Framework: testdex.Glubean, Patterns: patterns, Match: match, Extractor: glubeanExtractor{},
		Linker: glubeanLinker{}, Lister: glubeanLister{}, Runner: glubeanRunner{}, Duplicates: true}
}

// glubeanLinker sets every record's Scope to its file's path relative to
// the project folder, as the runner's results are read (one file a
// command).
type glubeanLinker struct{}

func (glubeanLinker) Link(_ *lang.Project, files []*lang.Linked) []testdex.Problem {
	for _, f := range files {
		for i := range f.Result.Tests {
			f.Result.Tests[i].Scope = f.Rel
		}
	}
	return nil
}
