package mutbench

import (
	"hash/fnv"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// sources are the project's non-test source files of its language under
// Src, relative and slash-separated, sorted: never a file the listing
// holds tests in, nor one named like a test, nor anything under Skip, a
// testdata folder or an installed or built folder.
func sources(root string, p Project, tests map[string]bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".venv", "target", "testdata", ".git", "__pycache__":
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && wanted(p, rel) && !tests[rel] && !testNamed(p.Lang, rel) {
			out = append(out, rel)
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// wanted reports whether rel is of p's language, under Src and not under
// Skip.
func wanted(p Project, rel string) bool {
	exts := map[string][]string{"go": {".go"}, "python": {".py"}, "js": {".js", ".cjs", ".mjs"}, "ts": {".ts", ".mts", ".cts"}, "rust": {".rs"}}[p.Lang]
	if !slices.ContainsFunc(exts, func(e string) bool { return strings.HasSuffix(rel, e) }) || strings.HasSuffix(rel, ".d.ts") {
		return false
	}
	under := func(prefixes []string) bool {
		return slices.ContainsFunc(prefixes, func(pre string) bool { return rel == pre || strings.HasPrefix(rel, pre) })
	}
	return (len(p.Src) == 0 || under(p.Src)) && !under(p.Skip)
}

// testNamed reports whether rel is named like a test file of lang.
func testNamed(lang, rel string) bool {
	base := filepath.Base(rel)
	switch lang {
	case "go":
		return strings.HasSuffix(base, "_test.go")
	case "python":
		return strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") || base == "conftest.py"
	case "js", "ts":
		return strings.Contains(base, ".test.") || strings.Contains(base, ".spec.")
	}
	return false
}

// findSites lists the mutation sites of the files.
func findSites(root, lang string, files []string) ([]Site, error) {
	var out []Site
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		if lang == "go" {
			out = append(out, goSites(f, src)...)
		} else {
			out = append(out, textSites(lang, f, string(src))...)
		}
	}
	return out, nil
}

// opOrder is the order order takes the operator classes in.
var opOrder = []string{"cmp", "const", "logic", "arith", "bool", "return"}

// order is the sequence the mutants are tried in, reproducible from seed
// and the project's name: each operator class's sites shuffled, then one
// of each class in turn, so that no class crowds out the others (integer
// constants outnumber the rest in most code).
func order(sites []Site, seed uint64, project string) []Site {
	h := fnv.New64a()
	h.Write([]byte(project))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	byOp := map[string][]Site{}
	for _, s := range sites {
		byOp[s.Op] = append(byOp[s.Op], s)
	}
	for _, op := range opOrder {
		rng.Shuffle(len(byOp[op]), func(i, j int) { byOp[op][i], byOp[op][j] = byOp[op][j], byOp[op][i] })
	}
	out := make([]Site, 0, len(sites))
	for more := true; more; {
		more = false
		for _, op := range opOrder {
			if len(byOp[op]) > 0 {
				out = append(out, byOp[op][0])
				byOp[op] = byOp[op][1:]
				more = true
			}
		}
	}
	return out
}
