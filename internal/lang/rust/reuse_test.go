package rust_test

import (
	"slices"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/config"
)

// TestReuseCrate lists testdata/reusecrate (rstest_reuse templates, doc
// attributes, include_str! docs) and compares with what `cargo test -- --list` printed for
// it (rustc 1.95, rstest 0.13, rstest_reuse 0.6), under the default
// features and under --no-default-features --features other.
func TestReuseCrate(t *testing.T) {
	unit := []string{
		"tests::cross_file::case_01", "tests::cross_file::case_02", "tests::cross_file::case_03", "tests::cross_file::case_04",
		"tests::cross_file::case_05", "tests::cross_file::case_06", "tests::cross_file::case_07", "tests::cross_file::case_08",
		"tests::cross_file::case_09", "tests::cross_file::case_10_last",
		"tests::equal::case_1_one", "tests::equal::case_2_two",
		"tests::with_more::case_1", "tests::with_more::case_2_half", "tests::with_more::case_3_more",
		"tests::with_values::{rstest}", // cargo: case_1::v_1, case_1::v_2, case_2_half::v_1, case_2_half::v_2
		// include_str!("../README.md") and the CARGO_MANIFEST_DIR form
		"src/lib.rs - included (line 92)", "src/lib.rs - included (line 98)", "src/lib.rs - included (line 103)",
		"src/lib.rs - included_from_manifest_dir (line 100)", "src/lib.rs - included_from_manifest_dir (line 106)",
	}
	for _, tc := range []struct {
		name string
		fw   config.Framework
		docs []string
	}{
		{"default", config.Framework{}, []string{"src/lib.rs - (line 3)", "src/lib.rs - (line 8)", "src/lib.rs - S::m (line 33)",
			"src/lib.rs - add (line 17)", "src/lib.rs - add (line 20)", "src/lib.rs - sugared (line 82)"}},
		{"other", config.Framework{NoDefaultFeatures: true, Features: []string{"other"}}, []string{"src/lib.rs - (line 13)",
			"src/lib.rs - (line 3)", "src/lib.rs - (line 8)", "src/lib.rs - add (line 17)", "src/lib.rs - add (line 20)",
			"src/lib.rs - sugared (line 82)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix, err := index.Build(t.Context(), index.Options{Root: "testdata/reusecrate", Frameworks: []testdex.Framework{testdex.Cargo},
				Config: &config.Config{Frameworks: map[string]config.Framework{"cargo": tc.fw}}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range ix.Tests {
				if r.Kind != testdex.KindSuite {
					got = append(got, r.Name)
				}
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(append(append([]string{}, unit...), tc.docs...)))
			if !slices.Equal(got, want) {
				t.Errorf("listed %q\nwant   %q", got, want)
			}
			for _, r := range ix.Tests {
				if r.Name == "src/lib.rs - (line 3)" && r.Skip != (tc.name == "other") {
					t.Errorf("%s: skip = %v (its fence is ```ignore without the feature extra)", r.Name, r.Skip)
				}
			}
		})
	}
}
