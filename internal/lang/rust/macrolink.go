package rust

import (
	"slices"
	"sort"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// expander expands, for the Linker, the item-level invocations of
// macro_rules! that declare tests, wherever the macro is defined. It
// walks each tested target's module tree depth-first in source order,
// keeping the macros in textual scope as rustc does: a definition is
// visible after it in its module (and in the modules declared after it
// there); #[macro_use] on a module keeps its macros visible after the
// module in its parent. A #[macro_export] macro is also visible by path
// (crate::m!, $crate::m!, the crate's name) everywhere, and by bare name
// in the crate root; a non-lib target also sees the library's exported
// macros (#[macro_use] extern crate, or a `use` of them).
//
// An invocation whose expansion is exact (rule chosen for certain, every
// test name spelled out) gives normal records at the invocation site: the
// module path of the invocation, plus the `mod` the macro body wraps them
// in. Otherwise it gives one dynamic record `module::{m!}` whose parent
// is a suite record named after the invoking module, so that `testdex
// check` counts the module's runtime names as covered (at a crate root,
// where no suite can be named, the dynamic record has no parent and
// covers its whole target). An invocation of a test-declaring macro the
// scope rules do not reach is dynamic too.
type expander struct {
	tr     *treeReader
	places map[string]place
	crate  string // the crate's name as a path segment
	rules  map[*macroDef][]rule
	byName map[string]bool // names of every test-declaring macro of the crate
	libExp map[string]*macroDef
	out    map[string][]lang.Test // records per invoking file
}

// visible is a definition in textual scope: vis is the inline module
// path of the current file it is visible in.
type visible struct {
	def *macroDef
	vis []string
}

// maxDepth bounds nested expansions (a macro invoking itself).
const maxDepth = 16

func newExpander(tr *treeReader, places map[string]place, crate string) *expander {
	return &expander{tr: tr, places: places, crate: strings.ReplaceAll(crate, "-", "_"),
		rules: map[*macroDef][]rule{}, byName: map[string]bool{}, out: map[string][]lang.Test{}}
}

// run expands the invocations of every tested target.
func (x *expander) run(targets []Target) {
	for rel := range x.tr.byRel {
		for _, d := range x.tr.facts(rel).Macros {
			x.byName[d.Name] = true
		}
	}
	if len(x.byName) == 0 {
		return
	}
	for i := range targets {
		if t := &targets[i]; t.Kind == "lib" {
			x.libExp = x.exported(t)
		}
	}
	for i := range targets {
		t := &targets[i]
		if !t.Tested {
			continue
		}
		exp := x.exported(t)
		x.visit(t, exp, t.Root, true, nil, map[string]bool{})
	}
}

// exported gathers the #[macro_export] definitions of t's module tree.
func (x *expander) exported(t *Target) map[string]*macroDef {
	files := map[string]place{}
	x.tr.walk(t, files)
	out := map[string]*macroDef{}
	for rel := range files {
		fs := x.tr.facts(rel)
		if fs == nil {
			continue
		}
		for i := range fs.Macros {
			if d := &fs.Macros[i]; d.Export {
				out[d.Name] = d
			}
		}
	}
	return out
}

// event is a definition, a module declaration or an invocation, in
// source order.
type event struct {
	line, kind, i int
}

// visit walks file rel with the definitions inherited from its parent
// and returns those that escape it (defined at its top level, or brought
// there by #[macro_use] modules).
func (x *expander) visit(t *Target, exp map[string]*macroDef, rel string, modRs bool, inherited []visible, seen map[string]bool) []visible {
	fs := x.tr.facts(rel)
	if seen[rel] || fs == nil {
		return nil
	}
	seen[rel] = true
	var evs []event
	for i, d := range fs.Macros {
		evs = append(evs, event{d.Line, 0, i})
	}
	for i, d := range fs.Mods {
		evs = append(evs, event{d.Line, 1, i})
	}
	for i, c := range fs.Calls {
		evs = append(evs, event{c.Line, 2, i})
	}
	sort.SliceStable(evs, func(a, b int) bool { return evs[a].line < evs[b].line })
	active := slices.Clone(inherited)
	for _, ev := range evs {
		switch ev.kind {
		case 0:
			active = append(active, visible{def: &fs.Macros[ev.i], vis: fs.Macros[ev.i].Vis})
		case 1:
			d := fs.Mods[ev.i]
			child, childModRs, ok := x.tr.resolve(rel, modRs, d)
			if !ok {
				continue
			}
			var in []visible
			for _, v := range active {
				if isPrefix(v.vis, d.Inline) {
					in = append(in, visible{def: v.def})
				}
			}
			esc := x.visit(t, exp, child, childModRs, in, seen)
			if d.MacroUse {
				for _, e := range esc {
					active = append(active, visible{def: e.def, vis: d.Vis})
				}
			}
		case 2:
			if pl, ok := x.places[rel]; ok && pl.target == t {
				c := fs.Calls[ev.i]
				x.out[rel] = append(x.out[rel], x.site(t, pl, c, x.resolver(active, exp, c.Inline, rel == t.Root))...)
			}
		}
	}
	var esc []visible
	for _, v := range active[len(inherited):] {
		if len(v.vis) == 0 {
			esc = append(esc, v)
		}
	}
	return esc
}

func isPrefix(p, s []string) bool {
	return len(p) <= len(s) && slices.Equal(p, s[:len(p)])
}

// resolver finds the definition a macro path names at an invocation:
// nil when it names no test-declaring macro of the crate; unscoped when
// it names one the scope rules do not reach.
func (x *expander) resolver(active []visible, exp map[string]*macroDef, inline []string, root bool) func(string) (*macroDef, bool) {
	return func(path string) (*macroDef, bool) {
		name := path
		qual := ""
		if i := strings.LastIndex(path, "::"); i >= 0 {
			qual, name = path[:i], path[i+2:]
		}
		switch qual {
		case "":
			for i := len(active) - 1; i >= 0; i-- {
				if v := active[i]; v.def.Name == name && isPrefix(v.vis, inline) {
					return v.def, true
				}
			}
			if d := exp[name]; d != nil && root && len(inline) == 0 {
				return d, true
			}
		case "crate", "$crate", "::" + x.crate, x.crate:
			if d := exp[name]; d != nil {
				return d, true
			}
		}
		if d := x.libExp[name]; d != nil && (qual == "" || qual == x.crate || qual == "::"+x.crate) {
			return d, true
		}
		if x.byName[name] {
			return nil, false
		}
		return nil, true
	}
}

// site makes the records of one invocation in the file at place pl.
func (x *expander) site(t *Target, pl place, c macroCall, resolve func(string) (*macroDef, bool)) []lang.Test {
	d, scoped := resolve(c.Name)
	if d == nil && scoped {
		return nil // not a macro that declares tests
	}
	module := append(slices.Clone(pl.module), c.Inline...)
	tags := append(slices.Clone(pl.tags), c.Tags...)
	var tests []mtest
	exact := false
	if d != nil {
		tests, exact = x.expand(d, tokenize(c.Args), resolve, 0)
		tags = append(tags, d.Tags...)
	}
	mk := func(kind testdex.Kind, name string) lang.Test {
		return lang.Test{Kind: kind, Name: name, Local: name, Scope: t.Root, Line: c.Line, Tags: slices.Clone(tags)}
	}
	if !exact {
		prefix := strings.Join(module, "::")
		dyn := mk(kindTest, joinName(prefix, "{"+c.Name+"!}"))
		dyn.Dynamic = true
		if prefix == "" {
			return []lang.Test{dyn}
		}
		dyn.Parent = prefix
		return []lang.Test{mk(testdex.KindSuite, prefix), dyn}
	}
	var out []lang.Test
	for _, m := range tests {
		r := mk(m.kind, strings.Join(append(append(slices.Clone(module), m.mods...), m.name), "::"))
		r.Run, r.Skip = r.Name, m.skip
		r.Tags = append(r.Tags, m.tags...)
		out = append(out, r)
	}
	return out
}

func joinName(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "::" + name
}

// expand expands definition d on the invocation tokens args (the
// delimited group). exact is false when any step is not certain.
func (x *expander) expand(d *macroDef, args []tok, resolve func(string) (*macroDef, bool), depth int) ([]mtest, bool) {
	if depth > maxDepth || len(args) != 1 || args[0].k != 'g' {
		return nil, false
	}
	rules, ok := x.rules[d]
	if !ok {
		rules = parseRules(d.Src)
		x.rules[d] = rules
	}
	body, b, sure := pick(rules, args[0].sub)
	if !sure {
		return nil, false
	}
	toks, ok := transcribe(body, []binds{b})
	if !ok {
		return nil, false
	}
	var s scanned
	s.items(toks, nil, nil, false)
	if s.inexact {
		return nil, false
	}
	out := s.tests
	for _, c := range s.calls {
		inner, scoped := resolveInner(d, c.name, resolve)
		if inner == nil {
			if !scoped {
				return nil, false
			}
			continue
		}
		tests, ok := x.expand(inner, []tok{{k: 'g', t: "(", sub: c.args}}, resolve, depth+1)
		if !ok {
			return nil, false
		}
		for _, m := range tests {
			m.mods = append(slices.Clone(c.mods), m.mods...)
			m.tags = append(slices.Clone(c.tags), m.tags...)
			out = append(out, m)
		}
	}
	return out, true
}

// resolveInner resolves a macro invoked by a macro's expansion: the macro
// itself by name or $crate path, else the invocation site's scope.
func resolveInner(d *macroDef, path string, resolve func(string) (*macroDef, bool)) (*macroDef, bool) {
	if path == d.Name || path == "$crate::"+d.Name {
		return d, true
	}
	return resolve(path)
}
