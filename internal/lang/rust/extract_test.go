package rust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/langtest"
)

func extract(src string) lang.Result { return langtest.Extract(Extractor{}, "x.rs", src) }

func names(r lang.Result) []string { return langtest.Names(r, true) }

// TestBadInput checks that broken files give a located error Problem and
// keep the tests that could be read.
func TestBadInput(t *testing.T) {
	r := extract("#[test]\nfn ok() {}\n\nfn broken( {\n")
	if len(r.Problems) != 1 || r.Problems[0].Line == 0 || r.Problems[0].Path != "" {
		t.Errorf("problems = %+v, want one error with a line", r.Problems)
	}
	if got := strings.Join(names(r), ","); got != "ok" {
		t.Errorf("tests = %q, want ok", got)
	}
	for _, src := range []string{"\x00\x01", "\xff\xfe#[test] fn a() {}"} {
		if r := extract(src); len(r.Problems) != 1 || len(r.Tests) != 0 {
			t.Errorf("%q: %+v", src, r)
		}
	}
}

func TestTestCaseNames(t *testing.T) {
	for args, want := range map[string]string{
		`(1, 2 ; "One and two")`:  "one_and_two",
		`(3, 4)`:                  "_3_4_expects",
		`(5, 6 => 11)`:            "_5_6_expects_11",
		`("a b", -1)`:             "_a_b_1_expects",
		`(x ; "2 things")`:        "_2_things",
		`(Some(1), [1, 2] => ())`: "some_1_1_2_expects_",
	} {
		if got, ok := testCaseName(args); !ok || got != want {
			t.Errorf("testCaseName(%s) = %q, %v; want %q", args, got, ok, want)
		}
	}
	if _, ok := testCaseName(`(1 => panics "x")`); ok {
		t.Error("keyword expectation should be dynamic")
	}
}

func TestFences(t *testing.T) {
	r := extract("/// ```rust,ignore\n/// x\n/// ```\n///\n/// ```sh\n/// ls\n/// ```\n/// ~~~compile_fail\n/// ~~~\nfn f() {}\n")
	if got := strings.Join(names(r), ","); got != "f (line 1),f (line 8)" {
		t.Errorf("doc tests = %q", got)
	}
	if !r.Tests[0].Skip {
		t.Error("ignore block should be skipped")
	}
}

// FuzzExtract feeds arbitrary bytes, seeded with the fixture's files: the
// extractor must never panic, and its keys must be unique.
func FuzzExtract(f *testing.F) {
	_ = filepath.WalkDir("../../../testdata/shapes/cargo", func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".rs") {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
		return nil
	})
	f.Add([]byte("#[test_case(1 ; \"x\")]\n#[rstest]\n#[case::a(1)]\nfn f() {}\n/**\n * ```\n */\nmod m;"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := Extractor{}.Extract(&lang.File{Rel: "f.rs", Data: data})
		seen := map[string]bool{}
		for _, tt := range r.Tests {
			if seen[tt.Key()] {
				t.Fatalf("duplicate key %q", tt.Key())
			}
			seen[tt.Key()] = true
		}
		_ = decodeFacts(r.Facts)
	})
}

// TestImplDocs checks the doc tests of impl blocks against rustdoc's own
// listing of arrayvec 0.7.6 (`cargo test --doc -- --list` in the crate
// from https://static.crates.io/crates/arrayvec/arrayvec-0.7.6.crate):
// docs on an impl block are named after its self type without spaces,
// `ArrayVec<T,CAP> (line 748)` and `&'aArrayVec<T,CAP> (line 800)`, on
// the lines of arrayvec's src/arrayvec.rs; docs on a method of a trait
// impl (added here) after the type and the method, as rustdoc lists
// `ArrayString<CAP>::from (line 100)` there.
func TestImplDocs(t *testing.T) {
	src := strings.Repeat("\n", 744) + `
/// Create an ` + "`ArrayVec`" + ` from an array.
///
/// ` + "```" + `
/// let mut array = ArrayVec::from([1, 2, 3]);
/// ` + "```" + `
impl<T, const CAP: usize> From<[T; CAP]> for ArrayVec<T, CAP> {
    /// Also from an array.
    ///
    /// ` + "```" + `
    /// let v = ArrayVec::from([1]);
    /// ` + "```" + `
    #[track_caller]
    fn from(array: [T; CAP]) -> Self { todo!() }
}
` + strings.Repeat("\n", 38) + `/// Iterate the ` + "`ArrayVec`" + ` with references to each element.
///
/// ` + "```" + `
/// for elt in &array {}
/// ` + "```" + `
impl<'a, T: 'a, const CAP: usize> IntoIterator for &'a ArrayVec<T, CAP> {
    type Item = &'a T;
}
`
	r := extract(src)
	got := strings.Join(names(r), ",")
	want := "ArrayVec<T,CAP>::from (line 754),ArrayVec<T,CAP> (line 748),&'aArrayVec<T,CAP> (line 800)"
	if got != want {
		t.Errorf("doc tests:\n got %s\nwant %s", got, want)
	}
}
