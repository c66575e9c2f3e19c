package languages

import (
	"slices"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/golang"
	"github.com/testdex/testdex/internal/lang/js"
	"github.com/testdex/testdex/internal/lang/python"
)

// TestConfigKnowsEveryFramework: testdex.toml accepts a table for every
// registered framework and for no other (config cannot import the
// registry, so it keeps the names itself).
func TestConfigKnowsEveryFramework(t *testing.T) {
	var names []string
	for _, n := range Names() {
		names = append(names, string(n))
	}
	got := slices.Sorted(slices.Values(config.KnownFrameworks))
	if want := slices.Sorted(slices.Values(names)); !slices.Equal(got, want) {
		t.Errorf("config.KnownFrameworks = %v; the registry's frameworks are %v", got, want)
	}
}

// TestRegistry: every framework is registered once, with a Detector, and
// a name no language registers gets the generic facts.
func TestRegistry(t *testing.T) {
	seen := map[testdex.Framework]bool{}
	for _, l := range All {
		if l.Detector == nil || len(l.Frameworks) == 0 {
			t.Errorf("%+v: no Detector or no framework", l)
		}
		for _, f := range l.Frameworks {
			if f.Name == "" || seen[f.Name] {
				t.Errorf("framework %q registered twice or unnamed", f.Name)
			}
			seen[f.Name] = true
			if Framework(f.Name) != f || !Known(f.Name) {
				t.Errorf("Framework(%q) is not the registered value", f.Name)
			}
		}
	}
	if Known("cobol") {
		t.Error(`Known("cobol") = true`)
	}
	if f := Framework("cobol"); f.Name != "cobol" || f.ParentsReport || f.RowsRunByID || f.Naming != nil {
		t.Errorf(`Framework("cobol") = %+v; want the generic facts`, f)
	}
}

// TestBodies: a file's rule for bodies is its language's, by extension;
// a language that sets none (Java) leaves its files to the static
// evidence.
func TestBodies(t *testing.T) {
	for file, want := range map[string]*lang.Bodies{
		"m.py": python.Language.Bodies, "a/b.go": golang.Language.Bodies,
		"x.test.tsx": js.Language.Bodies, "A.java": nil, "README": nil,
	} {
		if got := Bodies(file); got != want {
			t.Errorf("Bodies(%q) = %p, want %p", file, got, want)
		}
	}
	if python.Language.Bodies == nil || golang.Language.Bodies == nil || js.Language.Bodies == nil {
		t.Error("Go, Python or JavaScript sets no Bodies")
	}
}
