package python

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// parametrize reads @pytest.mark.parametrize(argnames, argvalues, ids=...)
// into a table of rows with pytest's IDs (idmaker), or a dynamic table
// when the values or IDs are not literal.
func (w *walker) parametrize(args *sitter.Node) table {
	var pos []*sitter.Node
	var ids, indirect *sitter.Node
	for i := 0; i < int(args.NamedChildCount()); i++ {
		a := args.NamedChild(i)
		if a.Type() == "comment" {
			continue
		}
		if a.Type() != "keyword_argument" {
			pos = append(pos, a)
			continue
		}
		switch w.text(a.ChildByFieldName("name")) {
		case "argnames":
			pos = append([]*sitter.Node{a.ChildByFieldName("value")}, pos...)
		case "argvalues":
			pos = append(pos, a.ChildByFieldName("value"))
		case "ids":
			ids = a.ChildByFieldName("value")
		case "indirect":
			indirect = a.ChildByFieldName("value")
		}
	}
	if len(pos) < 2 {
		return w.dynamic(args)
	}
	names, ok := w.argnames(pos[0])
	if !ok {
		return w.dynamic(pos[0])
	}
	w.mismatch = false
	t := w.table(names, pos[1], ids)
	// A mark's wrong number of ids fails the module's collection (a
	// fixture's fails only the tests that request it).
	w.refused = w.refused || (w.mismatch && !w.unittest)
	if indirect != nil && t.Dynamic == "" {
		switch indirect.Type() {
		case "true":
			t.Indirect = names
		case "false", "none":
		case "list", "tuple":
			for _, c := range children(indirect) {
				s, isBytes, ok := decodeString(w.text(c))
				if c.Type() != "string" || !ok || isBytes {
					return w.dynamic(indirect)
				}
				t.Indirect = append(t.Indirect, s)
			}
		default:
			return w.dynamic(indirect)
		}
	}
	return t
}

// table builds the rows of argvalues for argnames, with ids= when given.
func (w *walker) table(names []string, values, ids *sitter.Node) table {
	t := w.rows(names, values, ids)
	t.Argnames = names
	return t
}

func (w *walker) rows(names []string, values, ids *sitter.Node) table {
	w.assumed, w.consts, w.steps, w.evals = nil, nil, 0, 0
	t := w.knownRows(names, values, ids)
	if t.Dynamic == "" && len(w.assumed) > 0 {
		t.Assumed, t.Unless = w.assumed, w.dynamic(values).Dynamic
	}
	if t.Dynamic == "" && len(w.consts) > 0 {
		t.Consts, t.Unless = w.consts, w.dynamic(values).Dynamic
	}
	return t
}

func (w *walker) knownRows(names []string, values, ids *sitter.Node) table {
	t := w.knownRowsOf(names, values, ids)
	if t.Dynamic == "" && (w.isIterator(values, 0) || ids != nil && w.isIterator(ids, 0)) {
		t.once = w.dynamic(values).Dynamic
	}
	return t
}

func (w *walker) knownRowsOf(names []string, values, ids *sitter.Node) table {
	elems, ok := w.argvalues(values, 0)
	if !ok {
		if from := w.importedSeq(names, values, ids); from != "" {
			return table{SeqFrom: from, Unless: w.dynamic(values).Dynamic}
		}
		return w.dynamic(values)
	}
	src, problem, ok := w.idSource(ids, len(elems))
	if problem != "" {
		w.warnOnce(line(ids), problem)
		w.mismatch = true
	}
	if !ok {
		return w.dynamic(ids)
	}
	if len(elems) == 0 {
		// An empty table: one test with NOTSET values and the ID
		// "NOTSET" (pytest 9), skipped by empty_parameter_set_mark.
		return table{Rows: []row{{ID: "NOTSET", Skip: true, Tags: []string{"skip"}}}}
	}
	t := table{}
	var unknown []*sitter.Node
	for idx, e := range elems {
		r, ok := w.paramRow(e, names, idx, src)
		switch {
		case !ok:
			return w.dynamic(values)
		case r.anchor != "":
			unknown = append(unknown, e.n)
			t.Rows = append(t.Rows, r)
		default:
			t.Rows = append(t.Rows, r)
		}
	}
	if len(unknown) > 0 {
		if !w.partialRows(t.Rows, src) {
			return w.dynamic(values)
		}
		t.Rows = slices.DeleteFunc(t.Rows, func(r row) bool { return r.anchor != "" })
		t.Partial = w.dynamic(unknown[0]).Dynamic
	}
	if len(w.consts) > 0 {
		// Imported constants: the Linker puts their IDs in, then makes
		// the IDs unique (settleConsts); strict ids need them now.
		if w.strictIDs {
			return w.dynamic(values)
		}
		return t
	}
	if w.strictIDs && hasDuplicates(t.Rows) {
		// strict_parametrization_ids (or strict) makes duplicates a
		// collection error of the module.
		w.warnOnce(line(values), "duplicate parametrization IDs with strict_parametrization_ids set; pytest refuses to collect this module")
		w.mismatch = true
		return w.dynamic(values)
	}
	uniqueIDs(t.Rows)
	return t
}

func children(n *sitter.Node) []*sitter.Node {
	out := make([]*sitter.Node, 0, n.NamedChildCount())
	for i, nc := 0, int(n.NamedChildCount()); i < nc; i++ {
		if c := n.NamedChild(i); c.Type() != "comment" {
			out = append(out, c)
		}
	}
	return out
}

// dynamic is the table of values that cannot be known: one record named
// after the source expression.
func (w *walker) dynamic(n *sitter.Node) table {
	src := strings.Join(strings.Fields(w.text(n)), " ")
	if len(src) > 60 {
		src = src[:57] + "..."
	}
	return table{Dynamic: "{" + src + "}"}
}

// argnames reads "a,b", ("a", "b") or ["a", "b"].
func (w *walker) argnames(n *sitter.Node) ([]string, bool) {
	n = unparen(n)
	if e, ok := w.locals[w.text(n)]; ok && n.Type() == "identifier" && e.n != nil {
		return w.argnames(e.n) // a parameter of an inlined decorator
	}
	if n.Type() == "string" {
		s, isBytes, ok := decodeString(w.text(n))
		if !ok || isBytes {
			return nil, false
		}
		var out []string
		for _, p := range strings.Split(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out, len(out) > 0
	}
	if n.Type() != "list" && n.Type() != "tuple" {
		return nil, false
	}
	var out []string
	for _, c := range children(n) {
		s, isBytes, ok := decodeString(w.text(c))
		if c.Type() != "string" || !ok || isBytes {
			return nil, false
		}
		out = append(out, s)
	}
	return out, len(out) > 0
}

// paramRow makes one row: pytest.param(values..., id=, marks=), a tuple
// or list of values for several argnames, or one value. ok is false when
// its ID cannot be known.
func (w *walker) paramRow(e elem, names []string, idx int, ids idSource) (row, bool) {
	var r row
	saved := w.locals
	defer func() { w.locals = saved }()
	n, last := w.deref(e)
	var vals []pyVal
	explicit := false
	switch {
	case n == nil && last.seq != nil && len(names) > 1:
		// A tuple a helper or an iterator built (funcs.go, iters.go).
		for _, it := range last.seq.items {
			vals = append(vals, w.rowValue(it, ids.fn))
		}
	case n == nil:
		vals = []pyVal{w.elemValue(e, 0)}
	case n.Type() == "call" && w.isParam(n.ChildByFieldName("function")):
		var ok bool
		savedA, savedC := w.assumed, w.consts
		if vals, explicit, ok = w.paramCall(n, &r); !ok {
			return r, false
		}
		if explicit {
			// id= names the row: what its values assumed does not matter.
			w.assumed, w.consts = savedA, savedC
		}
	case len(names) == 1:
		vals = []pyVal{w.rowValue(elem{n: n, env: w.locals}, ids.fn)}
	default:
		items, ok := w.argvalues(n, 0)
		if !ok {
			return r, false
		}
		for _, it := range items {
			vals = append(vals, w.rowValue(it, ids.fn))
		}
	}
	if explicit {
		return r, true
	}
	if idx < len(ids.list) {
		if v := w.elemValue(ids.list[idx], 0); !isNone(v) {
			if v.kind != vText {
				return r, false
			}
			r.ID = v.id
			return r, true
		}
	}
	if len(vals) != len(names) {
		return r, false
	}
	parts := make([]string, len(vals))
	unknown := false
	for i, v := range vals {
		id, ok := w.autoID(v, ids.fn, names[i], idx)
		if !ok {
			unknown = true
			continue
		}
		parts[i] = id
		if v.kind == vObject && !v.deferred && ids.fn == nil && id == names[i]+strconv.Itoa(idx) {
			r.anchor = id
		}
	}
	r.ID = strings.Join(parts, "-")
	if unknown {
		return r, r.anchor != "" // an ID unknown but for its anchor, else unknown
	}
	r.anchor = ""
	return r, true
}

// partialRows says whether a table whose rows marked with an anchor have
// IDs that cannot be known can list its other rows by their IDs: pytest
// makes a table's IDs unique across all its rows (uniqueIDs), so the
// others' IDs are theirs only when none of them can equal an unknown
// one. An unknown ID holds its anchor, argname+index of an object
// argument (test_input7 in test_input7-???), so no known ID that lacks
// every anchor can equal one; duplicates among the known IDs, whose
// suffixes could, keep the table dynamic, as do ids=, imported
// constants and names assumed to be functions (the Linker rewrites
// those rows' IDs) and strict IDs. At least one row must be known.
func (w *walker) partialRows(rows []row, src idSource) bool {
	if src.fn != nil || len(src.list) > 0 || len(w.consts) > 0 || len(w.assumed) > 0 || w.strictIDs {
		return false
	}
	var known []row
	var anchors []string
	for _, r := range rows {
		if r.anchor != "" {
			anchors = append(anchors, r.anchor)
		} else {
			known = append(known, r)
		}
	}
	if len(known) == 0 || hasDuplicates(known) {
		return false
	}
	for _, r := range known {
		for _, a := range anchors {
			if strings.Contains(r.ID, a) {
				return false
			}
		}
	}
	return true
}

// deref follows an element bound to a comprehension variable to the node
// it stands for, leaving w.locals the environment that node is evaluated
// in; nil for an integer of range() or a sequence the interpreter built,
// which last is then.
func (w *walker) deref(e elem) (*sitter.Node, elem) {
	for i := 0; i < maxValueDepth; i++ {
		w.locals = e.env
		if e.n == nil {
			return nil, e
		}
		n := unparen(e.n)
		next, ok := w.locals[w.text(n)]
		if n.Type() != "identifier" || !ok {
			return n, e
		}
		e = next
	}
	return nil, elem{}
}

// isNone reports the value None.
func isNone(v pyVal) bool {
	return v.kind == vText && v.scalar && !v.str && v.id == "None"
}

// paramCall reads pytest.param(values..., id=, marks=) into r: its
// values, and whether id= gave the row's ID.
func (w *walker) paramCall(n *sitter.Node, r *row) (vals []pyVal, explicit, ok bool) {
	for _, a := range children(n.ChildByFieldName("arguments")) {
		if a.Type() != "keyword_argument" {
			vals = append(vals, w.value(a, 0))
			continue
		}
		v := a.ChildByFieldName("value")
		switch w.text(a.ChildByFieldName("name")) {
		case "id":
			if v.Type() == "none" {
				continue
			}
			id := w.value(v, 0)
			if !id.isStr() {
				return nil, false, false // pytest.HIDDEN_PARAM, a call, bytes (pytest refuses them)
			}
			r.ID, explicit = id.id, true
		case "marks":
			m := w.markList(v)
			r.Tags, r.Skip = m.Tags, m.Skip
		}
	}
	return vals, explicit, true
}

// autoID is pytest's IdMaker._idval for one value: the ids= callable's
// result when it gives one, else the value's own ID, else argname+index.
func (w *walker) autoID(v pyVal, fn idFunc, name string, idx int) (string, bool) {
	if fn != nil {
		out, fallback, ok := fn(v)
		if !ok || (!fallback && out.kind != vText) {
			return "", false
		}
		if !fallback {
			return out.id, true
		}
	}
	if v.deferred {
		return constPlaceholder(v.id, name+strconv.Itoa(idx)), true
	}
	switch pv := w.longString(v); pv.kind {
	case vText:
		return pv.id, true
	case vObject:
		return name + strconv.Itoa(idx), true
	}
	return "", false
}

func unparen(n *sitter.Node) *sitter.Node {
	for i := 0; n.Type() == "parenthesized_expression" && n.NamedChildCount() == 1 && i < 50; i++ {
		n = n.NamedChild(0)
	}
	return n
}

// isParam reports whether a callee is pytest.param.
func (w *walker) isParam(fn *sitter.Node) bool {
	return fn != nil && w.resolve(w.text(fn)) == "pytest.param"
}

func hasDuplicates(rows []row) bool {
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r.ID] {
			return true
		}
		seen[r.ID] = true
	}
	return false
}

// uniqueIDs is pytest's make_unique_parameterset_ids: duplicated IDs get
// a counter suffix (after "_" when the ID ends in a digit).
func uniqueIDs(rows []row) {
	counts := map[string]int{}
	all := map[string]bool{}
	for _, r := range rows {
		counts[r.ID]++
		all[r.ID] = true
	}
	if len(all) == len(rows) {
		return
	}
	suffixes := map[string]int{}
	for i := range rows {
		id := rows[i].ID
		if counts[id] <= 1 {
			continue
		}
		sep := ""
		if id != "" && id[len(id)-1] >= '0' && id[len(id)-1] <= '9' {
			sep = "_"
		}
		newID := id + sep + strconv.Itoa(suffixes[id])
		for all[newID] {
			suffixes[id]++
			newID = id + sep + strconv.Itoa(suffixes[id])
		}
		rows[i].ID = newID
		suffixes[id]++
	}
}

// expand turns a function into records keyed prefix+name: one test, and
// when parametrized (by its own, its class's or its module's tables, in
// that order) one subtest per row of their product, or one dynamic
// subtest when some table is unknowable.
func expand(prefix string, fn fnFact, outer markSet) []lang.Test {
	return expandWith(prefix, fn, outer, nil)
}

// expandWith is expand with the fixtures in scope: the tables of the
// parametrized fixtures the function requests, directly or through other
// fixtures, come first, in the order pytest applies them
// (fixtureScopes.tables), as pytest's fixture hook runs before the marks';
// when that order cannot be known the function gets one dynamic subtest.
func expandWith(prefix string, fn fnFact, outer markSet, fixtures fixtureScopes) []lang.Test {
	m := fn.Marks.merge(outer)
	if fixtures != nil {
		direct, marked := map[string]bool{}, map[string]bool{}
		for _, t := range m.Tables {
			for _, n := range t.Argnames {
				direct[n], marked[n] = !slices.Contains(t.Indirect, n), true
			}
		}
		fx, ok := fixtures.tables(m.Uses, fn.Args, direct, marked)
		if !ok {
			fx = []table{{Dynamic: "{fixtures}"}}
		}
		m.Tables = append(fx, m.Tables...)
	}
	key := prefix + fn.Name
	parent := lang.Test{Kind: testdex.KindTest, Name: key, Line: fn.Line, Tags: m.Tags, Skip: m.Skip}
	if len(m.Tables) == 0 {
		return []lang.Test{parent}
	}
	out := []lang.Test{parent}
	combos := []row{{}}
	partial := "" // the first table's rows whose IDs are unknown: one dynamic record stands for them
	for ti, t := range m.Tables {
		if t.Dynamic != "" {
			return append(out, lang.Test{Kind: testdex.KindSubtest, Name: key + "[" + t.Dynamic + "]", Parent: key,
				Line: fn.Line, Dynamic: true, Tags: m.Tags, Skip: m.Skip})
		}
		if t.Partial != "" && partial == "" {
			partial = t.Partial
		}
		next := make([]row, 0, len(combos)*len(t.Rows))
		for _, c := range combos {
			for _, r := range t.Rows {
				id := r.ID
				if ti > 0 {
					id = c.ID + "-" + r.ID
				}
				next = append(next, row{ID: id, Tags: appendUnique(append([]string(nil), c.Tags...), r.Tags...), Skip: c.Skip || r.Skip})
			}
		}
		combos = next
		if len(combos) > 100000 {
			return append(out, lang.Test{Kind: testdex.KindSubtest, Name: key + "[{too many rows}]", Parent: key,
				Line: fn.Line, Dynamic: true, Tags: m.Tags, Skip: m.Skip})
		}
	}
	for _, c := range combos {
		out = append(out, lang.Test{Kind: testdex.KindSubtest, Name: key + "[" + c.ID + "]", Parent: key, Line: fn.Line,
			Tags: appendUnique(append([]string(nil), m.Tags...), c.Tags...), Skip: m.Skip || c.Skip})
	}
	if partial != "" {
		out = append(out, lang.Test{Kind: testdex.KindSubtest, Name: key + "[" + partial + "]", Parent: key,
			Line: fn.Line, Dynamic: true, Tags: m.Tags, Skip: m.Skip})
	}
	return out
}

// longString applies pytest 9's parametrize_long_str_id_strategy to a
// generated ID: a str or bytes value over 100 characters becomes
// argname+index (short, the default), its SHA-256 (sha256), or stays
// (legacy).
func (w *walker) longString(v pyVal) pyVal {
	if !v.str || codePoints(v.raw) <= 100 {
		return v
	}
	switch w.longStr {
	case "legacy":
		return v
	case "sha256":
		sum := sha256.Sum256([]byte(v.raw)) // UTF-8, as str.encode("utf-8")
		return pyVal{kind: vText, id: hex.EncodeToString(sum[:])}
	case "disallow":
		return pyVal{kind: vUnknown}
	}
	return pyVal{kind: vObject}
}

// rowValue is the value of one argument of a row. An imported constant
// (from m import UNSET) is deferred to the Linker, which reads its str()
// in its module, unless an ids function is given the object itself.
func (w *walker) rowValue(e elem, fn idFunc) pyVal {
	v := w.elemValue(e, 0)
	if v.kind != vUnknown || fn != nil || e.n == nil {
		return v
	}
	n := unparen(e.n)
	attr := ""
	if n.Type() == "attribute" && n.ChildByFieldName("object").Type() == "identifier" {
		// module.NAME of an imported module (import click: click.STRING)
		attr = w.text(n.ChildByFieldName("attribute"))
		n = n.ChildByFieldName("object")
	}
	if n.Type() != "identifier" {
		return v
	}
	name := w.text(n)
	if _, local := e.env[name]; local || w.bindings[name] != 1 || !isConstantName(name) && attr == "" ||
		attr != "" && !isConstantName(attr) {
		return v
	}
	orig, ok := w.facts.Imports[name]
	switch {
	case !ok:
		return v
	case attr == "":
		return w.deferConst(orig)
	case !isConstantName(name) && !isClassName(name):
		return w.deferConst(orig + "." + attr)
	}
	return v
}
