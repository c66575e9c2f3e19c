package main

import (
	"strings"
	"testing"

	"github.com/testdex/testdex"
)

// TestSubtestFigures compares one package's run names with its records.
func TestSubtestFigures(t *testing.T) {
	ran := []string{"TestA", "TestA/x", "TestA/y", "TestA/y/deep", "TestB", "TestB/row1", "TestC", "TestC/lost"}
	recs := []testdex.Test{
		{Name: "TestA"}, {Name: "TestA/x", Parent: "a_test.go::TestA"}, {Name: "TestA/y", Parent: "a_test.go::TestA"},
		{Name: "TestA/never", Parent: "a_test.go::TestA"},
		{Name: "TestA/skipped", Parent: "a_test.go::TestA", Skip: true},
		{Name: "TestB"}, {Name: "TestB/{tc.name}", Parent: "a_test.go::TestB", Dynamic: true},
		{Name: "TestC"},
		{Name: "BenchmarkD/n=1", Parent: "a_test.go::BenchmarkD"},
	}
	var f subtestFigures
	var out strings.Builder
	f.add(&out, "p", ran, recs)
	want := subtestFigures{pkgs: 1, subtests: 5, matched: 2, missed: 3, covered: 1,
		leaves: 4, leavesMatched: 1, leavesCovered: 1, extras: 1, dynamic: 1}
	if f != want {
		t.Errorf("figures %+v, want %+v", f, want)
	}
	for _, s := range []string{"missed, no dynamic record: TestA/y/deep, TestC/lost", "extra: TestA/never"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("output %q lacks %q", out.String(), s)
		}
	}
}
