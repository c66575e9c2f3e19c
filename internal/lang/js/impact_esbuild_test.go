package js

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/testenv"
)

// esbuildInputs is a Node.js module that bundles each test file named on
// stdin with esbuild (packages left external, except the project's own
// name, resolved through its exports with the source conditions) and
// prints the files each bundle reads, one JSON line per test file.
const esbuildInputs = `
import fs from 'node:fs';
const { build } = await import(process.env.ESBUILD);
const self = process.env.SELF;
const ext = { name: 'ext', setup(b) {
  b.onResolve({ filter: /^[^./]/ }, a => (a.path === self || a.path.startsWith(self + '/')) ? undefined : { path: a.path, external: true });
} };
for (const t of fs.readFileSync(0, 'utf8').split('\n').filter(Boolean)) {
  const r = await build({ entryPoints: [t], bundle: true, write: false, metafile: true, platform: 'node', format: 'esm',
    conditions: ['@zod/source', 'source'], plugins: [ext], logLevel: 'silent', outdir: 'out' });
  console.log(JSON.stringify({ test: t, inputs: Object.keys(r.metafile.inputs) }));
}
`

// TestImpactCoversEsbuild checks the graph against a bundler on the
// installed fidelity projects (scripts/setup/fidelity.sh): every file
// esbuild bundles for a test file must be reached from it. It skips when
// node or the projects are missing.
func TestImpactCoversEsbuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs esbuild on installed projects")
	}
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not on PATH")
	}
	dir := os.Getenv("TESTDEX_FIDELITY_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "testdex-fidelity")
	}
	esbuild := filepath.Join(dir, "zod", "node_modules", "esbuild", "lib", "main.js")
	if _, err := os.Stat(esbuild); err != nil {
		t.Skip("zod's esbuild is not installed: run scripts/setup/fidelity.sh")
	}
	for _, name := range []string{"zod", "light-my-request"} {
		t.Run(name, func(t *testing.T) {
			root := filepath.Join(dir, name)
			env := &lang.DetectEnv{Root: root, ReadFile: os.ReadFile}
			p, _ := Detector.Detect(env, root, []string{"package.json"})
			if p == nil {
				t.Skipf("%s is not installed", root)
			}
			tests := testFiles(t, root, p)
			g, err := p.Grapher.Graph(&lang.GraphInput{Project: p, Root: root, Files: tests, ReadFile: os.ReadFile})
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("node", "--input-type=module", "-e", esbuildInputs)
			cmd.Dir, cmd.Stdin = root, strings.NewReader(strings.Join(tests, "\n"))
			cmd.Env = append(os.Environ(), "ESBUILD="+esbuild, "SELF="+p.Name)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("esbuild: %v", err)
			}
			checkCovers(t, g, out)
		})
	}
}

// testFiles lists the project's test files (root-relative).
func testFiles(t *testing.T, root string, p *lang.Project) []string {
	var out []string
	_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() && d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		for _, s := range p.Frameworks {
			if !d.IsDir() && s.Match(rel) {
				out = append(out, rel)
				break
			}
		}
		return nil
	})
	if len(out) == 0 {
		t.Fatal("no test files")
	}
	return out
}

// checkCovers checks each line {test, inputs} of esbuild's output against
// the graph's closure from the test file.
func checkCovers(t *testing.T, g *lang.Graph, out []byte) {
	uses := map[string][]string{}
	for _, e := range g.Edges {
		uses[e.From] = append(uses[e.From], e.To)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	n := 0
	for sc.Scan() {
		var r struct {
			Test   string
			Inputs []string
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{r.Test: true}
		for q := []string{r.Test}; len(q) > 0; q = q[1:] {
			for _, m := range uses[q[0]] {
				if !seen[m] {
					seen[m] = true
					q = append(q, m)
				}
			}
		}
		for _, in := range r.Inputs {
			if !seen[in] && !seen[lang.AnyNode] {
				t.Errorf("%s: esbuild bundles %s, the graph does not reach it", r.Test, in)
			}
		}
		n++
	}
	if n == 0 {
		t.Fatal("esbuild reported no test file")
	}
}
