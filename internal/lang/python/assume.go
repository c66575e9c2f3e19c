package python

import (
	"slices"
	"strconv"
	"strings"
)

// settle checks the assumptions a module's tables made about imported
// names (facts.go, table.Assumed): a name that is a module of the project
// has a dotted __name__, so the table's IDs are not the ones written, and
// it becomes its dynamic record.
func (c *classes) settle(m *modFile) {
	f := m.facts
	c.settleMarks(m, &f.Module)
	for i := range f.Funcs {
		c.settleMarks(m, &f.Funcs[i].Marks)
	}
	for i := range f.Classes {
		c.settleMarks(m, &f.Classes[i].Marks)
		for j := range f.Classes[i].Methods {
			c.settleMarks(m, &f.Classes[i].Methods[j].Marks)
		}
		c.settleFixtures(m, f.Classes[i].Fixtures)
	}
	c.settleFixtures(m, f.Fixtures)
}

func (c *classes) settleMarks(m *modFile, s *markSet) {
	for i := range s.Tables {
		c.settleTable(m, &s.Tables[i])
	}
}

func (c *classes) settleFixtures(m *modFile, fx map[string]fixtureFact) {
	for name, f := range fx {
		if f.Params != nil && (len(f.Params.Assumed)+len(f.Params.Consts) > 0 || f.Params.SeqFrom != "") {
			t := *f.Params
			c.settleTable(m, &t)
			f.Params = &t
			fx[name] = f
		}
	}
}

func (c *classes) settleTable(m *modFile, t *table) {
	if t.SeqFrom != "" {
		if !c.settleSeq(m, t) {
			*t = table{Dynamic: t.Unless, Argnames: t.Argnames, Indirect: t.Indirect}
		}
		return
	}
	for _, dotted := range t.Assumed {
		if d, ok := strings.CutPrefix(dotted, defMark); ok {
			if !c.isDef(m, d, 0) {
				*t = table{Dynamic: t.Unless, Argnames: t.Argnames, Indirect: t.Indirect}
				return
			}
			continue
		}
		if !c.isFunction(m, dotted, 0) {
			*t = table{Dynamic: t.Unless, Argnames: t.Argnames, Indirect: t.Indirect}
			return
		}
	}
	t.Assumed = nil
	if len(t.Consts) > 0 && !c.settleConsts(m, t) {
		*t = table{Dynamic: t.Unless, Argnames: t.Argnames, Indirect: t.Indirect}
	}
}

// isFunction reports whether a dotted name, as imported in m, may be the
// function named by its last part: not a module of the project, and,
// when its module is in the project, a def of that name there or an
// import of one (attrs.mutable = define is not: its __name__ is define).
// A module outside the project cannot be read: its names are taken for
// functions.
func (c *classes) isFunction(m *modFile, dotted string, depth int) bool {
	if depth > 8 || c.module(m, dotted) != nil {
		return false
	}
	modName, name := splitDotted(dotted)
	if modName == "" {
		return true
	}
	mod := c.module(m, modName)
	if mod == nil {
		return true
	}
	if slices.Contains(mod.facts.Defs, name) {
		return true
	}
	orig, ok := mod.facts.Imports[name]
	if !ok || orig[strings.LastIndex(orig, ".")+1:] != name {
		return false // bound otherwise, or imported under another name
	}
	return c.isFunction(mod, orig, depth+1)
}

// isDef reports whether a dotted name, as imported in m, is a function
// or class its module, a module of the project, binds once by def or
// class (or imports under that name from one that does): its __name__ is
// the name's last part.
func (c *classes) isDef(m *modFile, dotted string, depth int) bool {
	modName, name := splitDotted(dotted)
	if depth > 8 || modName == "" {
		return false
	}
	mod := c.module(m, modName)
	if mod == nil {
		return false
	}
	if slices.Contains(mod.facts.Defs, name) {
		return true
	}
	orig, ok := mod.facts.Imports[name]
	return ok && orig[strings.LastIndex(orig, ".")+1:] == name && c.isDef(mod, orig, depth+1)
}

// splitDotted splits a (relative) dotted name into its module and last
// part: "a.b.f" -> "a.b", "f"; ".f" -> ".", "f"; "..x.f" -> "..x", "f".
func splitDotted(dotted string) (mod, name string) {
	rest := strings.TrimLeft(dotted, ".")
	dots := dotted[:len(dotted)-len(rest)]
	i := strings.LastIndex(rest, ".")
	if i < 0 {
		return dots, rest
	}
	return dots + rest[:i], rest[i+1:]
}

// settleConsts puts each imported constant's str() in the rows' IDs
// (argname+index for an instance), then makes them unique as pytest
// does; it reports false when one is not known in its module.
func (c *classes) settleConsts(m *modFile, t *table) bool {
	ids := map[string]string{}
	for _, dotted := range t.Consts {
		id, ok := c.constID(m, dotted, 0)
		if !ok {
			return false
		}
		ids[dotted] = id
	}
	for i := range t.Rows {
		var b strings.Builder
		rest := t.Rows[i].ID
		for {
			start := strings.IndexByte(rest, 0)
			if start < 0 {
				break
			}
			end := strings.IndexByte(rest[start+1:], 0)
			if end < 0 {
				return false
			}
			dotted, fallback, _ := strings.Cut(rest[start+1:start+1+end], "\x01")
			id, ok := ids[dotted]
			if !ok {
				return false
			}
			if id == constObject {
				id = fallback
			}
			b.WriteString(rest[:start])
			b.WriteString(id)
			rest = rest[start+1+end+1:]
		}
		b.WriteString(rest)
		t.Rows[i].ID = b.String()
	}
	t.Consts = nil
	uniqueIDs(t.Rows)
	return true
}

// settleSeq makes the rows of a table whose argvalues is an imported
// constant sequence (table.SeqFrom) from the IDs its module gives the
// elements; false when the module does not know them.
func (c *classes) settleSeq(m *modFile, t *table) bool {
	ids, ok := c.seqIDs(m, t.SeqFrom, 0)
	if !ok || len(t.Argnames) != 1 {
		return false
	}
	t.Rows = nil
	for i, id := range ids {
		if id == constObject {
			id = t.Argnames[0] + strconv.Itoa(i)
		}
		t.Rows = append(t.Rows, row{ID: id})
	}
	if len(t.Rows) == 0 {
		t.Rows = []row{{ID: "NOTSET", Skip: true, Tags: []string{"skip"}}}
	}
	if hasDuplicates(t.Rows) {
		return false // strict ids would refuse the module; the table does not say
	}
	t.SeqFrom, t.Unless = "", ""
	return true
}

// seqIDs finds an imported constant sequence's IDs in the module that
// binds it, through the imports that pass it on.
func (c *classes) seqIDs(m *modFile, dotted string, depth int) ([]string, bool) {
	modName, name := splitDotted(dotted)
	if depth > 8 || modName == "" {
		return nil, false
	}
	mod := c.module(m, modName)
	if mod == nil {
		return nil, false
	}
	if ids, ok := mod.facts.Seqs[name]; ok {
		return c.settleDefIDs(mod, ids)
	}
	if orig, ok := mod.facts.Imports[name]; ok {
		return c.seqIDs(mod, orig, depth+1)
	}
	return nil, false
}

// constID finds an imported constant's str() in the module that binds
// it, through the imports that pass it on.
func (c *classes) constID(m *modFile, dotted string, depth int) (string, bool) {
	modName, name := splitDotted(dotted)
	if depth > 8 || modName == "" {
		return "", false
	}
	mod := c.module(m, modName)
	if mod == nil {
		return "", false
	}
	if id, ok := mod.facts.Consts[name]; ok {
		return id, true
	}
	if slices.Contains(mod.facts.Defs, name) {
		return name, true // a def or class bound once (fields.UUID): its __name__
	}
	if orig, ok := mod.facts.Imports[name]; ok {
		return c.constID(mod, orig, depth+1)
	}
	return "", false
}

// settleDefIDs checks, in mod, the def assumptions of a constant
// sequence's IDs (defIDPrefix) and returns the IDs without them.
func (c *classes) settleDefIDs(mod *modFile, ids []string) ([]string, bool) {
	var out []string
	for i, id := range ids {
		rest, ok := strings.CutPrefix(id, defIDPrefix)
		if !ok {
			continue
		}
		defs, id, ok := strings.Cut(rest, defIDPrefix)
		if !ok {
			return nil, false
		}
		for _, d := range strings.Split(defs, "\x03") {
			if dotted, ok := strings.CutPrefix(d, constMark); ok {
				if id, ok = c.constID(mod, dotted, 0); !ok {
					return nil, false
				}
				continue
			}
			if dotted, ok := strings.CutPrefix(d, defMark); !ok || !c.isDef(mod, dotted, 0) {
				return nil, false
			}
		}
		if out == nil {
			out = slices.Clone(ids)
		}
		out[i] = id
	}
	if out == nil {
		return ids, true
	}
	return out, true
}
