package rust

import (
	"strings"
	"testing"
)

// expandText expands the macro_rules! def on the invocation args (a
// delimited group) and returns its test names, or "~" when not exact.
func expandText(def, args string) string {
	x := &expander{rules: map[*macroDef][]rule{}}
	d := &macroDef{Name: "m", Src: def}
	none := func(string) (*macroDef, bool) { return nil, true }
	tests, ok := x.expand(d, tokenize(args), none, 0)
	if !ok {
		return "~"
	}
	var out []string
	for _, t := range tests {
		n := strings.Join(append(append([]string{}, t.mods...), t.name), "::")
		if t.skip {
			n += "(skip)"
		}
		out = append(out, n)
	}
	return strings.Join(out, " ")
}

// TestExpand covers the rule shapes of real crates (itoa, memchr) and
// the cases the engine refuses to guess.
func TestExpand(t *testing.T) {
	cases := []struct{ name, def, args, want string }{
		{"itoa rows", `macro_rules! m { ($($name:ident($value:expr, $expected:expr))*) => { $( #[test] fn $name() { let _ = ($value, $expected); } )* } }`,
			`{ a(0u64, "0") b(u64::MAX, "18") }`, "a b"},
		{"comma list with trailing comma", `macro_rules! m { ($($n:ident),* $(,)?) => { mod g { $( #[test] fn $n() {} )* } } }`,
			`(x, y,)`, "g::x g::y"},
		{"forwarding rule", `macro_rules! m { ($a:ident) => { $crate::m!($a, new); }; ($a:ident, $c:ident) => { quickcheck::quickcheck! { fn qc_one(x: u8) -> bool { true } #[ignore] fn qc_two() -> bool { true } } } }`,
			`(super)`, "qc_one qc_two(skip)"},
		{"closure as the only argument", `macro_rules! m { ($f:expr) => { #[cfg(not(miri))] quickcheck::quickcheck! { fn qc_fwd(bs: Vec<u8>) -> bool { ($f)(&bs) } } } }`,
			`(|h, n| Some(h.len() + n.len()))`, "qc_fwd"},
		{"closure before a separator", `macro_rules! m { ($f:expr, $n:ident) => { #[test] fn $n() {} } }`,
			`(|a, b| a + b, t)`, "~"},
		{"closure in a rule that is not the last", `macro_rules! m { ($f:expr) => { #[test] fn one() {} }; ($a:ident, $b:ident) => {} }`,
			`(|a, b| a)`, "~"},
		{"paste name", `macro_rules! m { ($n:ident) => { paste::paste! { #[test] fn [<test_ $n _ 2>]() {} } } }`,
			`(u8)`, "test_u8_2"},
		{"paste case modifier", `macro_rules! m { ($n:ident) => { paste::paste! { #[test] fn [<test_ $n:lower>]() {} } } }`,
			`(U8)`, "~"},
		{"no rule matches", `macro_rules! m { ($n:ident) => { #[test] fn $n() {} } }`, `(1, 2)`, "~"},
		{"second rule by literal", `macro_rules! m { (skip $n:ident) => { #[test] #[ignore] fn $n() {} }; ($n:ident) => { #[test] fn $n() {} } }`,
			`(plain)`, "plain"},
		{"test_case inside", `macro_rules! m { () => { #[test_case(1)] fn t(x: u8) {} } }`, `()`, "~"},
		{"nested fn bodies are skipped", `macro_rules! m { () => { #[test] fn outer() { #[test] fn inner() {} } } }`, `()`, "outer"},
	}
	for _, c := range cases {
		if got := expandText(c.def, c.args); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestTokenize checks the tokens the engine depends on: lifetimes versus
// chars, raw strings, nested comments, joined punctuation.
func TestTokenize(t *testing.T) {
	got := render(tokenize(`fn f<'a>(c: char) -> &'a str { /* a /* b */ */ let x = 'x'; r#"q"#; a::b => c }`))
	want := `fn f < 'a > (c : char) -> & 'a str {let x = 'x' ; r#"q"# ; a :: b => c}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestMacroFacts checks what the Extractor records for the Linker: test
// macros with their visibility, and item-level invocations.
func TestMacroFacts(t *testing.T) {
	r := extract(`
#[macro_use]
mod inner {
    macro_rules! hidden { () => { #[test] fn h() {} } }
}
mod plain {
    macro_rules! local { () => { #[test] fn l() {} } }
}
macro_rules! helper { () => { 1 } }
#[cfg(unix)]
mod calls {
    inner_call!(a, b);
}
quickcheck::quickcheck! {
    fn qc_prop(x: u8) -> bool { true }
}
`)
	f := decodeFacts(r.Facts)
	if len(f.Macros) != 2 || f.Macros[0].Name != "hidden" || len(f.Macros[0].Vis) != 0 ||
		f.Macros[1].Name != "local" || strings.Join(f.Macros[1].Vis, "::") != "plain" {
		t.Errorf("macros = %+v", f.Macros)
	}
	if len(f.Calls) != 1 || f.Calls[0].Name != "inner_call" || f.Calls[0].Args != "(a, b)" ||
		strings.Join(f.Calls[0].Inline, "::") != "calls" || strings.Join(f.Calls[0].Tags, " ") != "cfg(unix)" {
		t.Errorf("calls = %+v", f.Calls)
	}
	if got := strings.Join(names(r), " "); got != "qc_prop" {
		t.Errorf("tests = %q, want qc_prop", got)
	}
}
