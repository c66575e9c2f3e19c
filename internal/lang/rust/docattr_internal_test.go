package rust

import (
	"slices"
	"testing"
)

func TestDocAttr(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []docLine // nil: not a doc attribute
	}{
		{"#[doc = \"```\"]", []docLine{{text: "```", line: 5, raw: true}}},
		{`#![doc = "a\n\nb\n"]`, []docLine{{text: "a", line: 5, raw: true}, {text: "", line: 6, raw: true}, {text: "b", line: 7, raw: true}}},
		{`#[doc = r#"` + "\n    x\n" + `"#]`, []docLine{{text: "    x", line: 6, raw: true}}}, // first empty line dropped
		{`#[doc = "\n * a\n * b\n"]`, []docLine{{text: " a", line: 6, raw: true}, {text: " b", line: 7, raw: true}}},
		{`#[doc = ""]`, []docLine{{text: "", line: 5, raw: true}}},
		{"#![cfg_attr(not(feature = \"alloc\"), doc = \"```ignore\")]",
			[]docLine{{text: "```ignore", line: 5, raw: true, cond: `cfg(not(feature = "alloc"))`}}},
		{`#[cfg_attr(unix, doc = "a", allow(x), doc = "b")]`,
			[]docLine{{text: "a", line: 5, raw: true, cond: "cfg(unix)"}, {text: "b", line: 5, raw: true, cond: "cfg(unix)"}}},
		{`#[doc = "\u{e9}\x41\"\\"]`, []docLine{{text: "éA\"\\", line: 5, raw: true}}},
		{`#[doc = include_str!("../README.md")]`, []docLine{{line: 5, raw: true, include: "../README.md"}}},
		{`#[doc = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))]`,
			[]docLine{{line: 5, raw: true, include: "$CARGO_MANIFEST_DIR/README.md"}}},
		{`#[doc = include_str!(concat!("a", "b"))]`, nil},
		{`#[doc(hidden)]`, nil},
		{`#[cfg_attr(docsrs, feature(doc_cfg))]`, nil},
		{`#[derive(Debug)]`, nil},
	} {
		got, ok := docAttr(tc.src, 5)
		if ok != (tc.want != nil) || !slices.Equal(got, tc.want) {
			t.Errorf("docAttr(%s) = %+v, %v\nwant %+v", tc.src, got, ok, tc.want)
		}
	}
}

// TestUnindentMixed: when doc comments and doc attributes mix, an
// attribute's line counts one space more (rustdoc's unindent_doc_fragments),
// so "    x" from an attribute stays a code block next to "/// a".
func TestUnindentMixed(t *testing.T) {
	got := unindent([]docLine{{text: " a"}, {text: ""}, {text: "    x", raw: true}, {text: "     y"}})
	want := []string{"a", "", "    x", "    y"}
	if !slices.Equal(got, want) {
		t.Errorf("unindent = %q, want %q", got, want)
	}
}

// TestApplyUnresolved: an #[apply] whose template is nowhere gives the
// suite and one dynamic case.
func TestApplyUnresolved(t *testing.T) {
	got := applyTests(applied{Path: "m::gone", Name: "tests::f", Line: 3}, template{}, false)
	if len(got) != 2 || got[1].Name != "tests::f::{rstest}" || !got[1].Dynamic || got[1].Parent != "tests::f" {
		t.Errorf("applyTests = %+v", got)
	}
}

func TestRstestCases(t *testing.T) {
	cases, dyn := rstestCases([]attr{
		{path: "rstest", args: "(a, b, case(1, 2), case::named(3, 4), fix(5))", line: 1},
		{path: "case::more", args: "(5, 6)", line: 2},
	})
	if dyn || len(cases) != 3 || cases[0].desc != "" || cases[1].desc != "named" || cases[2] != (rcase{desc: "more", line: 2}) {
		t.Errorf("rstestCases = %+v, %v", cases, dyn)
	}
	if _, dyn := rstestCases([]attr{{path: "rstest", args: "(x => [1, 2])"}}); !dyn {
		t.Errorf("a value list is not dynamic")
	}
}
