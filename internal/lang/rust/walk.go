package rust

import (
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// walker visits a file's items shallowly: the file, inline module bodies,
// and (for doc tests) impl, trait, struct and enum bodies. Function bodies
// are never entered: libtest does not run #[test] items nested in them.
type walker struct {
	src   []byte
	tests []lang.Test
	facts facts
	names map[string]bool // keys used so far, to keep them unique
	// applies are the file's #[apply] functions, resolved once the
	// whole file (and its templates) has been read.
	applies []applied
}

// resolveApplies adds the records of the #[apply] functions whose
// template is in the file; the others go to the Linker.
func (w *walker) resolveApplies() {
	for _, a := range w.applies {
		if t, ok := findTemplate(w.facts.Templates, a.Path); ok {
			for _, r := range applyTests(a, t, true) {
				w.add(r)
			}
			continue
		}
		w.facts.Applies = append(w.facts.Applies, a)
	}
}

// scope is where an item sits: its inline module path within the file,
// the cfg tags inherited from enclosing modules, and whether cfg(test)
// gates it (no doc tests then: rustdoc does not build with cfg(test)).
type scope struct {
	path    []string
	tags    []string
	cfgTest bool
	// vis is where a macro_rules! defined here stays visible: path
	// without its trailing #[macro_use] modules.
	vis []string
}

func (s scope) join(name string) string {
	return strings.Join(append(slices.Clip(s.path), name), "::")
}

// pending is what precedes an item: its outer attributes and doc lines.
type pending struct {
	attrs []attr
	docs  []docLine
}

// container walks the items of a file or module body.
func (w *walker) container(n *sitter.Node, sc scope) {
	var pend pending
	var inner []docLine
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "line_comment", "block_comment":
			text := c.Content(w.src)
			line := int(c.StartPoint().Row) + 1
			if isInnerDoc(text) {
				inner = append(inner, docLines(text, line)...)
			} else if isOuterDoc(text) {
				pend.docs = append(pend.docs, docLines(text, line)...)
			}
			continue
		case "attribute_item":
			if ls, ok := docAttr(c.Content(w.src), line(c)); ok {
				pend.docs = append(pend.docs, ls...)
			}
			pend.attrs = append(pend.attrs, parseAttr(c, w.src))
			continue
		case "inner_attribute_item":
			if ls, ok := docAttr(c.Content(w.src), line(c)); ok {
				inner = append(inner, ls...)
			}
			a := parseAttr(c, w.src)
			sc = sc.with(a)
			continue
		case "ERROR":
			w.container(c, sc)
		default:
			w.item(c, sc, pend)
		}
		pend = pending{}
	}
	if len(inner) > 0 && !sc.cfgTest {
		w.doctests(inner, strings.Join(sc.path, "::"), sc.tags)
	}
}

// with returns the scope an attribute leaves: cfg(test) marks it, any
// other cfg(...) adds a tag.
func (sc scope) with(a attr) scope {
	if a.path != "cfg" {
		return sc
	}
	if a.args == "(test)" {
		sc.cfgTest = true
		return sc
	}
	sc.tags = append(slices.Clip(sc.tags), "cfg"+a.args)
	return sc
}

// item handles one item with the attributes and docs before it.
func (w *walker) item(n *sitter.Node, sc scope, pend pending) {
	isc := sc
	for _, a := range pend.attrs {
		isc = isc.with(a)
	}
	name := fieldText(n, "name", w.src)
	switch n.Type() {
	case "function_item":
		w.function(n, name, isc, pend.attrs)
	case "mod_item":
		if body := n.ChildByFieldName("body"); body != nil {
			w.docsFor(pend.docs, isc, name)
			sub := isc
			sub.path = append(slices.Clip(sc.path), name)
			if !hasAttr(pend.attrs, "macro_use") {
				sub.vis = sub.path
			}
			w.container(body, sub)
			return
		}
		w.modDecl(n, name, isc, pend)
		return
	case "impl_item":
		// rustdoc names the doc tests of an impl block's own docs after
		// its self type (`arrayvec::ArrayVec<T,CAP> (line 748)` for
		// `impl<T, const CAP: usize> From<[T; CAP]> for ArrayVec<T, CAP>`,
		// `&'aArrayVec<T,CAP>` for one on `&'a ArrayVec<T, CAP>`), its
		// members' after the type and the member.
		name = typeName(n, w.src)
		w.members(n, isc, name)
	case "trait_item":
		w.members(n, isc, name)
	case "struct_item", "union_item", "enum_item":
		w.members(n, isc, name)
	case "macro_definition":
		w.macroDef(n, name, isc, pend.attrs)
		if hasAttr(pend.attrs, "macro_export") {
			isc.path = nil // exported macros live at the crate root
		}
	case "const_item", "static_item", "type_item", "function_signature_item", "associated_type":
	case "macro_invocation":
		w.macroCall(n, isc)
		return
	case "expression_statement": // `m!(...);` at item level
		if c := n.NamedChild(0); c != nil && c.Type() == "macro_invocation" {
			w.macroCall(c, isc)
		}
		return
	default:
		return
	}
	if name != "" {
		w.docsFor(pend.docs, isc, name)
	}
}

// modDecl records `mod x;` for the Linker, with its #[path] and cfg.
func (w *walker) modDecl(n *sitter.Node, name string, sc scope, pend pending) {
	d := modDecl{Inline: sc.path, Name: name, Line: int(n.StartPoint().Row) + 1, Tags: sc.tags, CfgTest: sc.cfgTest,
		MacroUse: hasAttr(pend.attrs, "macro_use"), Vis: sc.vis}
	for _, a := range pend.attrs {
		if a.path == "path" {
			d.Path = a.value()
		}
	}
	w.facts.Mods = append(w.facts.Mods, d)
	if len(pend.docs) > 0 && !sc.cfgTest {
		w.doctests(pend.docs, sc.join(name), sc.tags)
	}
}

// members reads the doc tests of an impl, trait, struct, union or enum
// body's members (methods, associated items, fields, variants), named
// owner::member as rustdoc names them.
func (w *walker) members(n *sitter.Node, sc scope, owner string) {
	body := n.ChildByFieldName("body")
	if body == nil || owner == "" || sc.cfgTest {
		return
	}
	var docs []docLine
	msc := sc // the member's scope: its own cfg attributes, before or after its docs
	for i := 0; i < int(body.NamedChildCount()); i++ {
		c := body.NamedChild(i)
		switch c.Type() {
		case "line_comment", "block_comment":
			if text := c.Content(w.src); isOuterDoc(text) {
				docs = append(docs, docLines(text, int(c.StartPoint().Row)+1)...)
			}
			continue
		case "attribute_item":
			if ls, ok := docAttr(c.Content(w.src), line(c)); ok {
				docs = append(docs, ls...)
			}
			msc = msc.with(parseAttr(c, w.src))
			continue
		}
		if name := fieldText(c, "name", w.src); name != "" && len(docs) > 0 && !msc.cfgTest {
			w.doctests(docs, sc.join(owner+"::"+name), msc.tags)
		}
		docs, msc = nil, sc
	}
}

// docsFor adds the doc tests of an item's outer docs.
func (w *walker) docsFor(docs []docLine, sc scope, name string) {
	if len(docs) > 0 && !sc.cfgTest {
		w.doctests(docs, sc.join(name), sc.tags)
	}
}

// add appends a test, keeping keys unique within the file.
func (w *walker) add(t lang.Test) {
	if w.names[t.Key()] {
		return
	}
	w.names[t.Key()] = true
	if t.Tags == nil {
		t.Tags = []string{}
	}
	w.tests = append(w.tests, t)
}

func fieldText(n *sitter.Node, field string, src []byte) string {
	if c := n.ChildByFieldName(field); c != nil {
		return c.Content(src)
	}
	return ""
}

// typeName renders an impl's self type as rustdoc names it: G<T> for
// `impl<T: Clone> Tr for G<T>`, without spaces (rustdoc 1.95 prints
// Either<L,R>::f; checked with cargo test --doc -- --list).
func typeName(n *sitter.Node, src []byte) string {
	t := fieldText(n, "type", src)
	return strings.Join(strings.Fields(t), "") // rustdoc 1.95: Either<L,R>::f, no spaces
}

func line(n *sitter.Node) int { return int(n.StartPoint().Row) + 1 }

// kindTest is a shorthand for the record kind of a test function.
const kindTest = testdex.KindTest
