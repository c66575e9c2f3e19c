package rust

import "encoding/json"

// facts are what the Linker needs from a file beyond its tests: its
// `mod x;` declarations, its macro_rules! that declare tests and its
// item-level macro invocations (which may expand to tests). They travel in
// lang.Result.Facts as JSON.
type facts struct {
	Mods   []modDecl   `json:"mods,omitempty"`
	Macros []macroDef  `json:"macros,omitempty"`
	Calls  []macroCall `json:"calls,omitempty"`
	// Docs are item docs with cfg_attr doc lines (see condDoc).
	Docs []condDoc `json:"docs,omitempty"`
	// Templates are the file's rstest_reuse #[template] functions, Applies
	// its #[apply] functions whose template is not in the file.
	Templates []template `json:"templates,omitempty"`
	Applies   []applied  `json:"applies,omitempty"`
}

// macroDef is a macro_rules! whose text declares tests: a #[test]
// attribute (or another ::test path), a quickcheck! or proptest! block.
// Definitions that declare none are not recorded, so an empty cfg
// alternative (`#[cfg(miri)] macro_rules! m { ($($t:tt)*) => {} }`) does
// not shadow the one that declares tests.
type macroDef struct {
	Name string `json:"name"`
	Line int    `json:"line"`
	// Vis is the inline module path in which it stays visible after its
	// definition: the enclosing inline modules without the trailing ones
	// marked #[macro_use], as rustc's textual scope works.
	Vis    []string `json:"vis,omitempty"`
	Export bool     `json:"export,omitempty"`
	// Tags are its cfg(...) gates and those of its inline modules.
	Tags []string `json:"tags,omitempty"`
	Src  string   `json:"src"`
}

// macroCall is an item-level macro invocation `name!(...)`, outside
// function bodies (the only place one can declare tests).
type macroCall struct {
	Name   string   `json:"name"`
	Args   string   `json:"args"`
	Line   int      `json:"line"`
	Inline []string `json:"inline,omitempty"`
	Tags   []string `json:"tags,omitempty"`
}

// modDecl is one `mod name;` declaration.
type modDecl struct {
	// Inline are the inline modules around it within the file
	// (`mod a { mod b; }` gives ["a"] for b).
	Inline []string `json:"inline,omitempty"`
	Name   string   `json:"name"`
	// Path is its #[path = "..."] attribute, "" when none.
	Path string `json:"path,omitempty"`
	Line int    `json:"line"`
	// Tags are the cfg(...) gates on it and around it; CfgTest is true
	// under cfg(test) (then rustdoc never sees the module).
	Tags    []string `json:"tags,omitempty"`
	CfgTest bool     `json:"cfgTest,omitempty"`
	// MacroUse is #[macro_use] on it: the module's macros stay visible
	// after the declaration, in Vis (the Inline path without its trailing
	// #[macro_use] inline modules).
	MacroUse bool     `json:"macroUse,omitempty"`
	Vis      []string `json:"vis,omitempty"`
}

func encodeFacts(f facts) []byte {
	if len(f.Mods) == 0 && len(f.Macros) == 0 && len(f.Calls) == 0 && len(f.Docs) == 0 && len(f.Templates) == 0 && len(f.Applies) == 0 {
		return nil
	}
	b, _ := json.Marshal(f)
	return b
}

// decodeFacts reads Facts; bad or empty data gives no facts.
func decodeFacts(b []byte) facts {
	var f facts
	if len(b) > 0 {
		_ = json.Unmarshal(b, &f)
	}
	return f
}
