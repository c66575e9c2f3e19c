package js

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/testdex/testdex/internal/cache"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/langtest"
)

var updateImpact = flag.Bool("update-impact", false, "rewrite the edges, global and problems sections of testdata/impact/*.txtar from the current output (check them by hand)")

// TestImpactGraph builds the impact graph of each testdata/impact/*.txtar
// tree and compares it with the expectations the archive carries:
//
//	-- tests --     the project's test files (root-relative), one a line
//	-- project --   the project folder (default: the root)
//	-- edges --     every edge, "from -> to : why", sorted
//	-- global --    the globals besides the fixed lists (setup files, enclosing manifests)
//	-- owners --    "folder -> node", when any
//	-- problems --  "path:line: message", when any
//
// Regenerate with `go test ./internal/lang/js -run TestImpactGraph -update-impact`.
func TestImpactGraph(t *testing.T) {
	files, _ := filepath.Glob("testdata/impact/*.txtar")
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			sections := map[string]string{}
			for _, f := range ar.Files {
				switch f.Name {
				case "tests", "project", "edges", "global", "owners", "problems":
					sections[f.Name] = string(f.Data)
					continue
				}
				p := filepath.Join(root, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			g := graphFor(t, root, strings.TrimSpace(sections["project"]), strings.Fields(sections["tests"]))
			got := map[string]string{"edges": edgeLines(g), "global": globalLines(g), "owners": ownerLines(g), "problems": problemLines(g)}
			if *updateImpact {
				rewrite(t, file, ar, got)
				return
			}
			for _, k := range expectations {
				if got[k] != sections[k] {
					t.Errorf("%s:\n--- got\n%s--- want\n%s", k, got[k], sections[k])
				}
			}
			// The same through a scan cache: filled, then read back.
			cacheDir := t.TempDir()
			for _, run := range []string{"cold", "warm"} {
				st, err := cache.OpenScan(cacheDir, root)
				if err != nil {
					t.Fatal(err)
				}
				g := graphFor(t, root, strings.TrimSpace(sections["project"]), strings.Fields(sections["tests"]), st)
				if err := st.Save(); err != nil {
					t.Fatal(err)
				}
				if run == "warm" && st.Hits == 0 {
					t.Error("the warm run took nothing from the cache")
				}
				cached := map[string]string{"edges": edgeLines(g), "global": globalLines(g), "owners": ownerLines(g), "problems": problemLines(g)}
				for _, k := range expectations {
					if cached[k] != got[k] {
						t.Errorf("%s, %s cache:\n--- got\n%s--- without the cache\n%s", k, run, cached[k], got[k])
					}
				}
			}
		})
	}
}

// graphFor detects the project in root/dir and builds its graph, with
// the scan cache c when there is one.
func graphFor(t *testing.T, root, dir string, tests []string, c ...lang.ScanCache) *lang.Graph {
	t.Helper()
	env := &lang.DetectEnv{Root: root, ReadFile: os.ReadFile}
	p, probs := Detector.Detect(env, filepath.Join(root, dir), []string{"package.json"})
	if p == nil {
		t.Fatalf("no project detected: %v", probs)
	}
	if p.Grapher == nil {
		t.Fatal("the Detector sets no Grapher")
	}
	in := &lang.GraphInput{Project: p, Root: root, Files: tests, ReadFile: os.ReadFile}
	if len(c) > 0 {
		in.Cache = c[0]
	}
	g, err := p.Grapher.Graph(in)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func edgeLines(g *lang.Graph) string {
	var b strings.Builder
	for _, e := range g.Edges {
		b.WriteString(e.From + " -> " + e.To + " : " + e.Why + "\n")
	}
	return b.String()
}

// globalLines are the globals besides the fixed lists every project has.
func globalLines(g *lang.Graph) string {
	fixed := slices.Concat(commonGlobals, frameworkGlobals["jest"], frameworkGlobals["vitest"], frameworkGlobals["mocha"])
	var b strings.Builder
	for _, gl := range g.Global {
		if !slices.Contains(fixed, gl) {
			b.WriteString(gl + "\n")
		}
	}
	return b.String()
}

// expectations are the archive sections the test compares.
var expectations = []string{"edges", "global", "owners", "problems"}

func ownerLines(g *lang.Graph) string {
	var lines []string
	for k, v := range g.Owners {
		lines = append(lines, k+" -> "+v+"\n")
	}
	slices.Sort(lines)
	return strings.Join(lines, "")
}

func problemLines(g *lang.Graph) string {
	var b strings.Builder
	for _, p := range g.Problems {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

// rewrite replaces the expectation sections of an archive.
func rewrite(t *testing.T, file string, ar *txtar.Archive, got map[string]string) {
	var kept []txtar.File
	for _, f := range ar.Files {
		if !slices.Contains(expectations, f.Name) {
			kept = append(kept, f)
		}
	}
	for _, k := range expectations {
		if got[k] != "" {
			kept = append(kept, txtar.File{Name: k, Data: []byte(got[k])})
		}
	}
	ar.Files = kept
	if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRefsCodecFields fails when a scan result gains a field refsCodec
// does not know: encode it, and change the kind's version.
func TestRefsCodecFields(t *testing.T) {
	langtest.CodecFields(t, langtest.Fields{Value: ref{}, N: 7}, langtest.Fields{Value: scanResult{}, N: 2})
}
