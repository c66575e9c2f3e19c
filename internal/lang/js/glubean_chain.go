package js

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// gdecl is one Glubean test declaration: a test, a builder, or a test.each
// or test.pick call, before its rows are expanded.
type gdecl struct {
	line      int
	id        value        // the id, or the id template of each and pick
	name      value        // the display name (template), when set
	src       *sitter.Node // the id's expression, for a dynamic record's name
	tags      []string
	tagFields []string
	skip      bool
	only      bool
	filter    bool         // a filter callback thins the table out
	variant   string       // "each", "pick" or ""
	table     *sitter.Node // the table (each) or examples (pick)
	steps     []gstep
}

// gstep is one .step of a builder.
type gstep struct {
	name value
	src  *sitter.Node
	line int
}

// maxGChain bounds the nesting of the expressions read as a declaration.
const maxGChain = 200

// isTestFn reports whether an expression names the SDK's test function.
func (g *gwalker) isTestFn(n *sitter.Node) bool {
	if n == nil {
		return false
	}
	switch n.Type() {
	case "identifier":
		return g.fns[g.text(n)]
	case "member_expression":
		return g.fns[g.text(n)]
	}
	return false
}

// chain reads an expression as the declarations it exports; ok is false
// when it is not one.
func (g *gwalker) chain(n *sitter.Node, depth int) ([]*gdecl, bool) {
	if n == nil || depth > maxGChain {
		return nil, false
	}
	switch n.Type() {
	case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression":
		if n.NamedChildCount() > 0 {
			return g.chain(n.NamedChild(0), depth+1)
		}
	case "array":
		var out []*gdecl
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if ds, ok := g.chain(n.NamedChild(i), depth+1); ok {
				out = append(out, ds...)
			}
		}
		return out, len(out) > 0
	case "call_expression":
		return g.call(n, depth)
	}
	return nil, false
}

// call reads a call: test(...), test.only/skip(...), test.each(t)(...),
// test.pick(e)(...), or a builder method on a declaration.
func (g *gwalker) call(n *sitter.Node, depth int) ([]*gdecl, bool) {
	fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	if fn == nil || args == nil {
		return nil, false
	}
	if g.isTestFn(fn) {
		return []*gdecl{g.base(n, args)}, true
	}
	if fn.Type() == "call_expression" { // test.each(table)(...), test.pick(examples)(...)
		inner := fn.ChildByFieldName("function")
		if inner == nil || inner.Type() != "member_expression" || !g.isTestFn(inner.ChildByFieldName("object")) {
			return nil, false
		}
		variant := g.text(inner.ChildByFieldName("property"))
		if variant != "each" && variant != "pick" {
			return nil, false
		}
		d := g.base(n, args)
		d.variant, d.table = variant, firstArg(fn.ChildByFieldName("arguments"))
		return []*gdecl{d}, true
	}
	if fn.Type() != "member_expression" {
		return nil, false
	}
	obj, prop := fn.ChildByFieldName("object"), g.text(fn.ChildByFieldName("property"))
	if g.isTestFn(obj) && (prop == "only" || prop == "skip") {
		d := g.base(n, args)
		d.only, d.skip = d.only || prop == "only", d.skip || prop == "skip"
		return []*gdecl{d}, true
	}
	ds, ok := g.chain(obj, depth+1)
	if !ok || len(ds) != 1 {
		return nil, false
	}
	g.method(ds[0], prop, args)
	return ds, true
}

// base reads the id or meta argument of a test call.
func (g *gwalker) base(call, args *sitter.Node) *gdecl {
	d := &gdecl{line: int(call.StartPoint().Row) + 1}
	a := firstArg(args)
	d.src = a
	v := g.eval(a, 0)
	switch v.kind {
	case kString:
		d.id = v
	case kObject:
		g.meta(d, v)
	default:
		if a != nil && a.Type() == "object" { // some fields are not literals: read those that are
			g.metaFields(d, a)
		}
	}
	return d
}

// meta merges a meta object's fields into a declaration.
func (g *gwalker) meta(d *gdecl, v value) {
	if id, ok := v.field("id"); ok {
		d.id = id
	}
	if n, ok := v.field("name"); ok {
		d.name = n
	}
	if t, ok := v.field("tags"); ok {
		d.tags = appendNew(d.tags, stringList(t)...)
	}
	if t, ok := v.field("tagFields"); ok {
		d.tagFields = stringList(t)
	}
	if b, ok := v.field("skip"); ok && b.kind == kBool {
		d.skip = d.skip || b.b
	}
	if b, ok := v.field("only"); ok && b.kind == kBool {
		d.only = d.only || b.b
	}
	if _, ok := v.field("filter"); ok {
		d.filter = true
	}
}

// metaFields reads the literal fields of a meta object some of whose
// fields are not literals (a filter callback, a computed timeout).
func (g *gwalker) metaFields(d *gdecl, obj *sitter.Node) {
	v := value{kind: kObject}
	for i := 0; i < int(obj.NamedChildCount()); i++ {
		p := obj.NamedChild(i)
		k, val := p.ChildByFieldName("key"), p.ChildByFieldName("value")
		if p.Type() == "method_definition" {
			k, val = p.ChildByFieldName("name"), p
		}
		if k == nil || val == nil {
			continue
		}
		key, ok := g.propertyKey(k)
		if !ok {
			continue
		}
		v.keys, v.vals = append(v.keys, key), append(v.vals, g.eval(val, 0))
		if key == "id" {
			d.src = val
		}
	}
	g.meta(d, v)
}

// method applies one builder method.
func (g *gwalker) method(d *gdecl, prop string, args *sitter.Node) {
	switch prop {
	case "step":
		a := firstArg(args)
		d.steps = append(d.steps, gstep{name: g.eval(a, 0), src: a, line: int(args.StartPoint().Row) + 1})
	case "meta":
		if a := firstArg(args); a != nil {
			if v := g.eval(a, 0); v.kind == kObject {
				g.meta(d, v)
			} else if a.Type() == "object" {
				g.metaFields(d, a)
			}
		}
	case "only":
		d.only = true
	case "skip":
		d.skip = true
	}
}

func firstArg(args *sitter.Node) *sitter.Node {
	if args == nil {
		return nil
	}
	for i := 0; i < int(args.NamedChildCount()); i++ {
		if a := args.NamedChild(i); a.Type() != "comment" {
			return a
		}
	}
	return nil
}

// stringList reads tags: a string or an array of strings.
func stringList(v value) []string {
	switch v.kind {
	case kString:
		return []string{v.str}
	case kArray:
		var out []string
		for _, e := range v.arr {
			if e.kind == kString {
				out = append(out, e.str)
			}
		}
		return out
	}
	return nil
}

func appendNew(list []string, more ...string) []string {
	for _, s := range more {
		if !slices.Contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}

// declare lists one exported expression's tests.
func (g *gwalker) declare(v *sitter.Node) {
	ds, ok := g.chain(v, 0)
	if !ok {
		return
	}
	for _, d := range ds {
		g.emitDecl(d)
	}
}

// grow is one record a declaration gives: its id and, for a row, the
// row's data.
type grow struct {
	id      string
	dynamic bool
	tags    []string
	pick    string // the example's key
}

// emitDecl lists a declaration's records and their steps.
func (g *gwalker) emitDecl(d *gdecl) {
	for _, r := range g.expand(d) {
		// Run is what the CLI's --filter matches: the id, or the template
		// of a table's rows (the CLI reads templates, not rows); none for
		// an id the source does not give, whose file runs whole.
		run := d.id.str
		if d.id.kind != kString {
			run = ""
		}
		if r.pick != "" {
			run += " --pick " + r.pick
		}
		t := lang.Test{Kind: testdex.KindTest, Name: r.id, Line: d.line, Dynamic: r.dynamic, Skip: d.skip, Only: d.only,
			Variant: d.variant, Tags: r.tags, Run: run}
		if !g.listed(t) {
			continue
		}
		for _, s := range d.steps {
			name, dyn := s.name.str, r.dynamic
			if s.name.kind != kString {
				name, dyn = "{?}", true
				if s.src != nil {
					name = g.sourceTitle(s.src)
				}
			}
			g.listed(lang.Test{Kind: testdex.KindSubtest, Name: r.id + " > " + name, Parent: r.id, Line: s.line,
				Dynamic: dyn, Skip: d.skip, Only: d.only, Variant: d.variant, Run: run})
		}
	}
}

// listed appends a record unless a dynamic one of that name is listed
// already; a second test of one id is listed too, with a warning, as the
// runner runs both.
func (g *gwalker) listed(t lang.Test) bool {
	if first, dup := g.seen[t.Name]; dup {
		if t.Dynamic {
			return false
		}
		g.problems = append(g.problems, glubeanDuplicate(t.Name, first, t.Line))
	} else {
		g.seen[t.Name] = t.Line
	}
	g.tests = append(g.tests, t)
	return true
}

// glubeanDuplicate warns of a second test with an id already listed.
func glubeanDuplicate(id string, first, line int) testdex.Problem {
	where := fmt.Sprintf("lines %d and %d", first, line)
	if first == line {
		where = fmt.Sprintf("line %d, twice", line)
	}
	return testdex.Problem{Severity: testdex.SevWarning, Line: line,
		Message: fmt.Sprintf("duplicate test id %q (%s): both are listed, under one ID, and the Glubean runner runs both (give them distinct ids)", id, where)}
}

// expand gives a declaration's records: one for a test, one a row for
// test.each, one an example for test.pick.
func (g *gwalker) expand(d *gdecl) []grow {
	if d.id.kind != kString {
		id := "{?}"
		if d.src != nil {
			id = g.sourceTitle(d.src)
		}
		return []grow{{id: id, dynamic: true, tags: d.tags}}
	}
	if d.variant == "" {
		return []grow{{id: d.id.str, tags: d.tags}}
	}
	table := g.eval(d.table, 0)
	var rows []value
	var picks []string
	switch {
	case d.filter || !table.known():
	case d.variant == "each" && table.kind == kArray:
		rows = table.arr
	case d.variant == "pick" && table.kind == kObject:
		keys, vals := entries(table)
		for i, k := range keys {
			if vals[i].kind != kObject {
				rows = nil
				break
			}
			row := value{kind: kObject, keys: append(slices.Clone(vals[i].keys), "_pick"), vals: append(slices.Clone(vals[i].vals), value{kind: kString, str: k})}
			rows, picks = append(rows, row), append(picks, k)
		}
	}
	if len(rows) == 0 || len(rows) > maxRows {
		return []grow{{id: d.id.str, dynamic: true, tags: d.tags}}
	}
	out := make([]grow, 0, len(rows))
	for i, row := range rows {
		if row.kind != kObject {
			return []grow{{id: d.id.str, dynamic: true, tags: d.tags}}
		}
		r := grow{id: interpolateRow(d.id.str, row, i), tags: slices.Clone(d.tags)}
		for _, f := range d.tagFields {
			if v, ok := row.field(f); ok && v.kind != kNull && v.kind != kUndefined {
				r.tags = appendNew(r.tags, f+":"+v.jsString())
			}
		}
		if picks != nil {
			r.pick = picks[i]
		}
		out = append(out, r)
	}
	return out
}

// interpolateRow fills in an id template as the SDK does: $index first,
// then $key for each of the row's keys in Object.entries order.
func interpolateRow(template string, row value, index int) string {
	s := strings.ReplaceAll(template, "$index", strconv.Itoa(index))
	keys, vals := entries(row)
	for i, k := range keys {
		s = strings.ReplaceAll(s, "$"+k, vals[i].jsString())
	}
	return s
}

// entries are an object's own keys and values in Object.entries order:
// the integer keys ascending, then the others in the order first written,
// each with its last value.
func entries(v value) ([]string, []value) {
	var keys []string
	vals := map[string]value{}
	for i, k := range v.keys {
		if _, ok := vals[k]; !ok {
			keys = append(keys, k)
		}
		vals[k] = v.vals[i]
	}
	var ints, rest []string
	for _, k := range keys {
		if n, err := strconv.ParseUint(k, 10, 32); err == nil && strconv.FormatUint(n, 10) == k && n < 1<<32-1 {
			ints = append(ints, k)
		} else {
			rest = append(rest, k)
		}
	}
	slices.SortStableFunc(ints, func(a, b string) int {
		x, _ := strconv.ParseUint(a, 10, 32)
		y, _ := strconv.ParseUint(b, 10, 32)
		return int(x) - int(y)
	})
	keys = append(ints, rest...)
	out := make([]value, len(keys))
	for i, k := range keys {
		out[i] = vals[k]
	}
	return keys, out
}
