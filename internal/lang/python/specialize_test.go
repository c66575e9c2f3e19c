package python_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
)

// TestSpecializedClasses checks that the classes specutil's factories
// make are static records, named as made and run by the names bound,
// where the base is known (testdata/pyids_unittest, whose golden file is
// unittest's own listing), and that the others are left to the module's
// dynamic record.
func TestSpecializedClasses(t *testing.T) {
	ix, err := index.Build(context.Background(), index.Options{Root: filepath.Join("testdata", "pyids_unittest")})
	if err != nil {
		t.Fatal(err)
	}
	var static []string
	runs := map[string]string{}
	for _, r := range ix.Tests {
		if !r.Dynamic && r.Kind == testdex.KindTest {
			static = append(static, r.Name)
			runs[r.Name] = r.Run
		}
	}
	if run := runs["test_specialize.Frozen_Odd.test_odd"]; run != "test_specialize.First.test_odd" {
		t.Errorf("test_specialize.Frozen_Odd.test_odd runs as %q, want the name bound, test_specialize.First.test_odd", run)
	}
	for _, want := range []string{"test_specialize.Frozen_Mixin.test_one", "test_specialize.Source_Mixin.test_one",
		"test_specialize.Frozen_Plain.test_plain", "test_specialize.Source_Plain.test_extra",
		"test_specialize.Frozen_Odd.test_odd", "test_specialize.Source_Odd.test_odd",
		"test_specialize.Frozen_Twice.test_first", "test_specialize.Source_Twice.test_first"} {
		if !slices.Contains(static, want) {
			t.Errorf("no static record %s", want)
		}
	}
	for _, absent := range []string{"test_specialize.Frozen_Indexed.test_indexed",
		"test_specialize.First.test_odd", "test_specialize.Frozen_Twice.test_second",
		"test_hide.Chained.test_a", "test_hide.Chained.test_b"} {
		if slices.Contains(static, absent) {
			t.Errorf("static record %s: its name is not known statically, or the class hides it", absent)
		}
	}
}

// TestMadeClasses checks that test_loopmade's module-level loops name
// the classes they make and the methods they set or hide, and that
// test_factorymade's function-made classes are named, as static records
// (the modules' dynamic records would cover them anyway, so the golden
// comparison alone cannot tell).
func TestMadeClasses(t *testing.T) {
	ix, err := index.Build(context.Background(), index.Options{Root: filepath.Join("testdata", "pyids_unittest")})
	if err != nil {
		t.Fatal(err)
	}
	var static []string
	for _, r := range ix.Tests {
		if !r.Dynamic && r.Kind == testdex.KindTest {
			static = append(static, r.Name)
		}
	}
	for _, want := range []string{"test_loopmade.Proto2Test.test_mixin", "test_loopmade.Proto0Test.test_kept",
		"test_loopmade.Target.test_alpha", "test_loopmade.Target.test_when_S", "test_loopmade.Base.test_kept",
		"test_factorymade.make.<locals>.First.test_one", "test_factorymade.make.<locals>.Second.test_two",
		"test_copied.Known.test_known", "test_copied.Derived.test_derived"} {
		if !slices.Contains(static, want) {
			t.Errorf("no static record %s", want)
		}
	}
	for _, absent := range []string{"test_loopmade.Target.test_gone", "test_loopmade.Extra0_1.test_base",
		"test_factorymade.other.<locals>.Hidden.test_h"} {
		if slices.Contains(static, absent) {
			t.Errorf("static record %s: the loop hides it, or it is not known statically", absent)
		}
	}
}
