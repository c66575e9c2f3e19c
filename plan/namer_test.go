package plan_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/plan"
)

// idFixtures are the repository's trees with a test of every framework
// and shape: listed records, dynamic records, doc tests, parameter rows.
var idFixtures = []string{
	"../examples/polyglot",
	"../testdata/run",
	"../testdata/run/unittest",
	"../testdata/shapes",
	"../internal/lang/golang/testdata/fixture",
}

// childSuffixes are names a runner may report under a listed record, per
// framework: rows and subtests whose names carry the other frameworks'
// separators, brackets and "::" inside parameters.
var childSuffixes = map[testdex.Framework][]string{
	testdex.Go:       {"/new_sub", "/a::b[1]", "/x/y"},
	testdex.Jest:     {" > new test", " > x::y [1] a/b"},
	testdex.Vitest:   {" > new test", " > x::y [1] a/b"},
	testdex.Mocha:    {" > new test", " > x::y [1] a/b"},
	testdex.NodeTest: {" > new test", " > x::y [1] a/b"},
	testdex.Pytest:   {"[a::b-c]", "[x[1]]", "::test_new", "::test_new[p::q]"},
	testdex.Unittest: {".test_new"},
	testdex.Cargo:    {"::new_test"},
	testdex.JUnit:    {"[9]", "[a::b]"},
}

// TestIDRoundTrip is the property every command relies on: an ID testdex
// prints (a listed record's, or one the ID rules give a test only the
// runner reported, under a listed record or at the top of a listed file)
// names, through ForID, the same test (framework, project, scope and name)
// that `testdex run` then hands to the runner.
func TestIDRoundTrip(t *testing.T) {
	for _, dir := range idFixtures {
		root, err := filepath.Abs(dir)
		if err != nil {
			t.Fatal(err)
		}
		ix, err := index.Build(context.Background(), index.Options{Root: root})
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if len(ix.Tests) == 0 {
			t.Fatalf("%s: no tests", dir)
		}
		n := ix.NewNamer()
		checked := 0
		for _, rec := range ix.Tests {
			if got, ok := n.ForID(rec.ID); !ok || got.ID != rec.ID || got.Name != rec.Name || got.Scope != rec.Scope {
				t.Errorf("%s: ForID(%q) = %+v, %v; want the listed record", dir, rec.ID, got, ok)
			}
			if rec.Dynamic || rec.Framework == testdex.Semtest || rec.Framework == testdex.SkillTest {
				continue
			}
			for _, r := range childResults(rec) {
				made, listed := n.Record(r)
				if listed {
					continue
				}
				back, ok := n.ForID(made.ID)
				if !ok || back.Framework != r.Framework || back.Project != r.Project || back.Scope != r.Scope || back.Name != r.Name {
					t.Errorf("%s: %s %q %q named %q, which names %+v (ok %v)", dir, r.Framework, r.Scope, r.Name, made.ID, back, ok)
				}
				if made.Parent == "" {
					t.Errorf("%s: %q has no parent under %q", dir, made.ID, rec.ID)
				}
				checked++
			}
			if top := topResult(rec); top != nil {
				made, _ := n.Record(*top)
				back, ok := n.ForID(made.ID)
				if !ok || back.Scope != top.Scope || back.Name != top.Name {
					t.Errorf("%s: top-level %s %q %q named %q, which names %+v (ok %v)", dir, top.Framework, top.Scope, top.Name, made.ID, back, ok)
				}
				checked++
			}
		}
		t.Logf("%s: %d listed, %d runtime names checked", dir, len(ix.Tests), checked)
		if checked == 0 {
			t.Errorf("%s: no runtime names checked", dir)
		}
	}
}

// childResults are results a runner might report under rec.
func childResults(rec testdex.Test) []plan.Result {
	var out []plan.Result
	for _, suffix := range childSuffixes[rec.Framework] {
		r := plan.Result{Project: rec.Project, Framework: rec.Framework, Scope: rec.Scope, Name: rec.Name + suffix}
		if rec.Framework == testdex.JUnit && rec.Kind == testdex.KindSuite {
			r.Scope, r.Name = joinScope(rec.Scope, rec.Name), "newMethod()"+suffix
		}
		if rec.Framework == testdex.Unittest && rec.Kind != testdex.KindSuite {
			continue // a method has no children but subTests, reported on it
		}
		out = append(out, r)
	}
	return out
}

// topResult is a test a runner might report at the top of rec's file,
// which the listing does not hold.
func topResult(rec testdex.Test) *plan.Result {
	if rec.Parent != "" {
		return nil
	}
	r := &plan.Result{Project: rec.Project, Framework: rec.Framework, Scope: rec.Scope, File: rec.File}
	switch rec.Framework {
	case testdex.Go:
		r.Name, r.File = "TestOnlyTheRunnerSaw", ""
	case testdex.Pytest:
		file, _ := cutNode(rec.Name)
		r.Name = file + "::test_only_the_runner_saw[a::b]"
	case testdex.Jest, testdex.Vitest, testdex.Mocha, testdex.NodeTest:
		r.Name = "only the runner saw > it"
	case testdex.Cargo:
		r.Name, r.File = "only::the_runner_saw", ""
	default:
		return nil
	}
	return r
}

func cutNode(name string) (file, rest string) {
	for i := 0; i+1 < len(name); i++ {
		if name[i] == ':' && name[i+1] == ':' {
			return name[:i], name[i+2:]
		}
	}
	return name, ""
}

// TestRuntimeIDEqualsListedID: a test the runner reports that the listing
// missed gets the ID the listing would have given it. Every third leaf
// record of each fixture is taken out of the index and reported as the
// runner reports it (with the file where the runner names one: JavaScript
// reporters and pytest do, go test and libtest do not).
func TestRuntimeIDEqualsListedID(t *testing.T) {
	for _, dir := range idFixtures {
		root, _ := filepath.Abs(dir)
		ix, err := index.Build(context.Background(), index.Options{Root: root})
		if err != nil {
			t.Fatal(err)
		}
		parents := map[string]bool{}
		for _, r := range ix.Tests {
			parents[r.Parent] = true
		}
		var removed []testdex.Test
		kept := ix.Tests[:0:0]
		for i, r := range ix.Tests {
			leaf := !parents[r.ID] && !r.Dynamic && r.Framework != testdex.Semtest && r.Framework != testdex.SkillTest
			if leaf && i%3 == 0 {
				removed = append(removed, r)
				continue
			}
			kept = append(kept, r)
		}
		ix.Tests = kept
		n := ix.NewNamer()
		for _, r := range removed {
			res := plan.Result{Project: r.Project, Framework: r.Framework, Scope: r.Scope, Name: r.Name, Kind: r.Kind}
			switch r.Framework {
			case testdex.Jest, testdex.Vitest, testdex.Mocha, testdex.NodeTest, testdex.Unittest:
				res.File = r.File
			}
			got, _ := n.Record(res)
			if r.Framework == testdex.Cargo && !sameModuleListed(kept, r) {
				continue // the module's file is known only from its listed tests (see Namer.cargoFile)
			}
			if got.ID != r.ID {
				t.Errorf("%s: %s %q %q reported at run time is %q; listed as %q", dir, r.Framework, r.Scope, r.Name, got.ID, r.ID)
			}
			if got.Parent != r.Parent && r.Framework != testdex.Cargo { // cargo: a macro's tests may list at top level in a module
				t.Errorf("%s: %q's parent %q, listed %q", dir, r.ID, got.Parent, r.Parent)
			}
		}
	}
}

// sameModuleListed reports whether a listed cargo record shares r's module
// (or r is a doc test or at the top of its target).
func sameModuleListed(listed []testdex.Test, r testdex.Test) bool {
	i := strings.LastIndex(r.Name, "::")
	if i < 0 || r.Kind == testdex.KindDoctest {
		return true
	}
	for _, t := range listed {
		if t.Framework == testdex.Cargo && t.Project == r.Project && strings.HasPrefix(t.Name, r.Name[:i]+"::") {
			return true
		}
	}
	return false
}
