package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/index"
)

// open makes a root with a Go package and a link leaving it.
func open(t *testing.T) (*Workspace, string) {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	for f, text := range map[string]string{
		"go.mod":      "module example.com/ws\n\ngo 1.22\n",
		"a/a.go":      "package a\n\nfunc A() int { return 1 }\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { _ = A() }\n",
		"../out/x.go": "package out\n",
	} {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
	}
	os.Symlink(filepath.Join(base, "out"), filepath.Join(root, "link"))
	ws, err := Open(index.Options{Root: root, Dir: root}, t.TempDir(), os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	return ws, root
}

// TestConfine: one rule for paths a front end names: root-relative or
// absolute inside the root; outside by "..", by an absolute path or
// through a link, or missing, each a typed error.
func TestConfine(t *testing.T) {
	ws, root := open(t)
	got, err := ws.Confine([]string{"a", filepath.Join(root, "a/a.go"), "./a/../a"})
	if err != nil || !reflect.DeepEqual(got, []string{"a", "a/a.go", "a"}) {
		t.Errorf("inside: %q, %v", got, err)
	}
	var outside *OutsideError
	var missing *MissingError
	for _, p := range []string{"..", "/etc", "link", "link/x.go"} {
		if _, err := ws.Confine([]string{p}); !errors.As(err, &outside) {
			t.Errorf("%s: %v, want an *OutsideError", p, err)
		}
	}
	if _, err := ws.Confine([]string{"nope"}); !errors.As(err, &missing) {
		t.Errorf("nope: %v, want a *MissingError", err)
	}
}

// TestAffected: named files select through the graph, a missing one is a
// deletion with a note, one outside the root a *UsageError; the selection
// runs a whole file by path, else its tests by ID.
func TestAffected(t *testing.T) {
	ws, root := open(t)
	ctx := context.Background()
	ix, err := ws.List(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ws.Affected(ctx, ix, AffectedRequest{Files: []string{"a/a.go", filepath.Join(root, "gone.go")}, NoCoverage: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Affected) != 1 || res.Affected[0].File != "a/a_test.go" {
		t.Errorf("affected %+v", res.Affected)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "gone.go does not exist") {
		t.Errorf("notes %q", res.Notes)
	}
	var ue *UsageError
	if _, err := ws.Affected(ctx, ix, AffectedRequest{Files: []string{"/etc/passwd"}}); !errors.As(err, &ue) {
		t.Errorf("outside: %v, want a *UsageError", err)
	}
	ids, paths := Selection([]changes.Affected{
		{File: "w_test.go", Tests: []testdex.Test{{ID: "w_test.go::TestW"}}},
		{File: "p_test.go", Tests: []testdex.Test{{ID: "p_test.go::TestP"}, {ID: "p_test.go::TestP/x", Parent: "p_test.go::TestP"}},
			Reasons: []changes.Reason{{}, {}}},
	})
	if !reflect.DeepEqual(ids, []string{"p_test.go::TestP"}) || !reflect.DeepEqual(paths, []string{"w_test.go"}) {
		t.Errorf("selection: ids %q, paths %q", ids, paths)
	}
}

// TestFailuresWithoutStore: with the stores off, Failures says so.
func TestFailuresWithoutStore(t *testing.T) {
	ws, _ := open(t)
	if _, ran, err := ws.Failures(nil); err != nil || ran {
		t.Errorf("no run yet: ran %v, %v", ran, err)
	}
	ws.CacheDir = ""
	if _, _, err := ws.Failures(nil); !errors.Is(err, ErrNoStore) {
		t.Errorf("stores off: %v, want ErrNoStore", err)
	}
}
