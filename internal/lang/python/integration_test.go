package python_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/python"
	"github.com/testdex/testdex/internal/parsertest"
	"github.com/testdex/testdex/internal/testenv"
)

// runLister detects the project in dir, runs its framework's own listing
// command and parses it. It skips only when python3 is absent.
func runLister(t *testing.T, dir string, manifests []string) []lang.Listed {
	t.Helper()
	if _, err := exec.LookPath(python.Python); err != nil {
		testenv.Missing(t, "%s is not on PATH: install Python 3 to compare with pytest and unittest", python.Python)
	}
	abs, _ := filepath.Abs(dir)
	env := &lang.DetectEnv{Root: abs, ReadFile: os.ReadFile}
	p, probs := python.Detector.Detect(env, abs, manifests)
	if p == nil || len(probs) > 0 {
		t.Fatalf("detect %s: %v", dir, probs)
	}
	s := p.Frameworks[0]
	c, err := s.Lister.ListCommand(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(c.Args[0], c.Args[1:]...)
	cmd.Dir, cmd.Env = c.Dir, append(os.Environ(), c.Env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code := parsertest.ExitCode(t, cmd)
	listed, err := s.Lister.ParseList(p, stdout.Bytes(), stderr.Bytes(), code)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	return listed
}

// compare checks the runtime listing against the static records of one
// project: every static non-dynamic record is reported with the same
// Scope and Name, and every reported test is a static record or lies
// under a dynamic one's parent.
func compare(t *testing.T, static []testdex.Test, listed []lang.Listed) {
	t.Helper()
	got := map[string]bool{}
	for _, l := range listed {
		got[l.Scope+"\x00"+l.Name] = true
	}
	names := map[string]bool{}
	byID := map[string]string{}
	for _, r := range static {
		byID[r.ID] = r.Name
	}
	// prefixes are what the dynamic records cover, by index's
	// coveredByDynamic rule for an empty scope: the parent's name, or the
	// literal text of a top-level record's name before its placeholder.
	var prefixes []string
	for _, r := range static {
		if r.Dynamic {
			p := byID[r.Parent]
			if r.Parent == "" {
				p, _, _ = strings.Cut(r.Name, "{")
			}
			prefixes = append(prefixes, p)
			continue
		}
		names[r.Scope+"\x00"+r.Name] = true
		if !got[r.Scope+"\x00"+r.Name] {
			t.Errorf("static %s %q is not reported by the framework", r.Kind, r.Name)
		}
	}
	for _, l := range listed {
		if names[l.Scope+"\x00"+l.Name] {
			continue
		}
		covered := false
		for _, p := range prefixes {
			covered = covered || (p != "" && strings.HasPrefix(l.Name, p) && l.Name != p)
		}
		if !covered {
			t.Errorf("framework reports %s %q; no static record matches or covers it", l.Kind, l.Name)
		}
	}
}

func staticOf(t *testing.T, project string) []testdex.Test {
	ix := buildShapes(t)
	var out []testdex.Test
	for _, r := range ix.Tests {
		if r.Project == project {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no static records in %s", project)
	}
	return out
}

// TestPytestListerAgrees runs pytest --collect-only on the fixture.
func TestPytestListerAgrees(t *testing.T) {
	listed := runLister(t, filepath.Join(shapesDir, "pytestproj"), []string{"pyproject.toml"})
	compare(t, staticOf(t, "pytestproj"), listed)
}

// TestUnittestListerAgrees runs unittest discovery on the fixture.
func TestUnittestListerAgrees(t *testing.T) {
	listed := runLister(t, filepath.Join(shapesDir, "unittestproj"), []string{"setup.py"})
	compare(t, staticOf(t, "unittestproj"), listed)
}
