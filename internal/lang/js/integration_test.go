package js_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/js"
	"github.com/testdex/testdex/internal/parsertest"
	"github.com/testdex/testdex/internal/testenv"
)

// TestListersAgreeWithStatic runs each framework's own listing (the
// runtime method) on the fixture and compares it with the static records:
// every static record that is neither dynamic nor knowingly unreported
// must be listed by the framework with the same Scope and Name, and every
// name the framework lists must be a static record or lie under a dynamic
// one. Knowingly unreported: tests Vitest's list skips (skip, todo), and
// node:test subtests (test bodies do not run while listing).
//
// It needs node and npx, and the fixture installed by scripts/setup/node.sh.
func TestListersAgreeWithStatic(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the frameworks (seconds each)")
	}
	for _, tool := range []string{"node", "npx"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Missing(t, "%s is not installed: the runtime listing needs Node.js", tool)
		}
	}
	ix := buildShapes(t)
	for _, sub := range []string{"jest", "vitest", "mocha", "node-test"} {
		t.Run(sub, func(t *testing.T) {
			dir, _ := filepath.Abs(filepath.Join(shapesDir, sub))
			if _, err := os.Stat(filepath.Join(dir, "package-lock.json")); err == nil && sub != "node-test" {
				if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
					t.Fatalf("%s has no node_modules: run scripts/setup/node.sh", dir)
				}
			}
			compareProject(t, ix, sub, dir)
		})
	}
}

func compareProject(t *testing.T, ix *index.Index, sub, dir string) {
	p, probs := js.Detector.Detect(&lang.DetectEnv{Root: dir, ReadFile: os.ReadFile}, dir, []string{"package.json"})
	if p == nil || len(p.Frameworks) != 1 {
		t.Fatalf("detect %s: %+v %v", dir, p, probs)
	}
	setup := p.Frameworks[0]
	var static []testdex.Test
	files := map[string]bool{}
	var fileList []string
	for _, r := range ix.Tests {
		if r.Project == sub {
			static = append(static, r)
			if !files[r.Scope] {
				files[r.Scope] = true
				fileList = append(fileList, r.Scope)
			}
		}
	}
	listed := runLister(t, setup.Lister, p, fileList)
	got := map[string]bool{}
	for _, l := range listed {
		got[l.Scope+"::"+l.Name] = true
	}
	for _, r := range static {
		unreported := r.Dynamic || (setup.Framework == testdex.Vitest && r.Skip) || r.Kind == testdex.KindSubtest && setup.Framework == testdex.NodeTest
		if !unreported && !got[r.Scope+"::"+r.Name] {
			t.Errorf("static %s %q (%s) not listed by %s", r.Scope, r.Name, r.Kind, setup.Framework)
		}
	}
	for _, l := range listed {
		if !covered(static, l) {
			t.Errorf("%s lists %s %q, which no static record names or covers", setup.Framework, l.Scope, l.Name)
		}
	}
	t.Logf("%s: %d static records, %d listed by the framework", setup.Framework, len(static), len(listed))
}

// covered reports whether a listed test is a static record, or lies under
// the parent of a dynamic record of its file.
func covered(static []testdex.Test, l lang.Listed) bool {
	for _, r := range static {
		if r.Scope != l.Scope {
			continue
		}
		if r.Name == l.Name {
			return true
		}
		if r.Dynamic {
			parent := ""
			if i := strings.LastIndex(r.Name, " > "); i >= 0 && !strings.Contains(r.Name[:i], "{") {
				parent = r.Name[:i] + " > "
			}
			if strings.HasPrefix(l.Name, parent) {
				return true
			}
		}
	}
	return false
}

func runLister(t *testing.T, ls lang.Lister, p *lang.Project, files []string) []lang.Listed {
	t.Helper()
	cmd, err := ls.ListCommand(p, files)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, cmd.Args[0], cmd.Args[1:]...)
	c.Dir, c.Env = cmd.Dir, append(os.Environ(), cmd.Env...)
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	start := time.Now()
	code := parsertest.ExitCode(t, c)
	t.Logf("%s took %v", strings.Join(cmd.Args[:3], " "), time.Since(start).Round(time.Millisecond))
	listed, err := ls.ParseList(p, stdout.Bytes(), stderr.Bytes(), code)
	if err != nil {
		t.Fatal(err)
	}
	return listed
}
