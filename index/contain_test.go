package index

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestContained: a test reached through a symlinked folder that points
// outside the root is refused, with its real path; paths inside the root,
// through a symlink that stays inside or not, give their real root-relative
// path, and a symlinked root is judged by its real path.
func TestContained(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "repo")
	for _, d := range []string{"outside", "repo/pkg"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"outside/evil_test.go", "repo/pkg/a_test.go"} {
		if err := os.WriteFile(filepath.Join(base, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"repo/ext": "../outside", "repo/alias": "pkg", "link": "repo"} {
		if err := os.Symlink(target, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range []string{root, filepath.Join(base, "link")} {
		for p, want := range map[string]string{
			"pkg/a_test.go":                    "pkg/a_test.go",
			"alias/a_test.go":                  "pkg/a_test.go",
			".":                                ".",
			filepath.Join(r, "pkg/a_test.go"):  "pkg/a_test.go",
			filepath.Join(root, "pkg"):         "pkg",
			"pkg/../alias/../pkg/a_test.go":    "pkg/a_test.go",
			filepath.Join(base, "link", "pkg"): "pkg",
		} {
			if got, err := Contained(r, p); err != nil || got != want {
				t.Errorf("Contained(%s, %s) = %q, %v; want %q", r, p, got, err, want)
			}
		}
		for _, p := range []string{"ext/evil_test.go", "ext", "..", "../outside/evil_test.go", filepath.Join(base, "outside")} {
			_, err := Contained(r, p)
			var out *OutsideError
			if !errors.As(err, &out) {
				t.Errorf("Contained(%s, %s): err %v, want an *OutsideError", r, p, err)
				continue
			}
			if want := p + " is outside the root " + r; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Contained(%s, %s): %q, want it to start with %q", r, p, err, want)
			}
		}
	}
	_, err = Contained(root, "ext/evil_test.go")
	if want := "ext/evil_test.go is outside the root " + root + " (it resolves to " + filepath.Join(base, "outside", "evil_test.go") + ")"; err == nil || err.Error() != want {
		t.Errorf("error %q\nwant  %q", err, want)
	}
	if _, err := Contained(root, "missing_test.go"); err == nil || errors.As(err, new(*OutsideError)) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing path: err %v, want a not-exist error", err)
	}
}
