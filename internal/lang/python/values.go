package python

import (
	"slices"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// enumMembers reads the module's enum classes: classes whose only base is
// enum.Enum and that define no __str__ (str() of a member is then
// "Class.NAME" in every Python 3; IntEnum, StrEnum, Flag and mixins
// changed in 3.11 and are left out). A member is kept only when no other
// can be its alias: the values are distinct strings and integers, or all
// auto(), or object() (a new object each, as sentinels are made).
func (w *evaluator) enumMembers(defs []*sitter.Node) {
	for _, n := range defs {
		d := definition(n)
		if d == nil || d.Type() != "class_definition" {
			continue
		}
		sup := d.ChildByFieldName("superclasses")
		if sup == nil || sup.NamedChildCount() != 1 || w.resolve(w.text(sup.NamedChild(0))) != "enum.Enum" {
			continue
		}
		if members := w.enumBody(d.ChildByFieldName("body")); members != nil {
			if w.enums == nil {
				w.enums = map[string]map[string]bool{}
			}
			w.enums[w.text(d.ChildByFieldName("name"))] = members
		}
	}
}

// enumBody returns an enum class body's members, nil when some value
// could make an alias.
func (w *evaluator) enumBody(body *sitter.Node) map[string]bool {
	if body == nil {
		return nil
	}
	members := map[string]bool{}
	seen := map[string]bool{}
	kinds := map[string]bool{}
	for _, s := range children(body) {
		if d := definition(s); d.Type() == "function_definition" && w.text(d.ChildByFieldName("name")) == "__str__" {
			return nil // str() is the class's own
		}
		if s.Type() != "expression_statement" || s.NamedChildCount() == 0 || s.NamedChild(0).Type() != "assignment" {
			continue
		}
		a := s.NamedChild(0)
		left, right := a.ChildByFieldName("left"), a.ChildByFieldName("right")
		if left == nil || right == nil || left.Type() != "identifier" || strings.HasPrefix(w.text(left), "_") {
			continue
		}
		key, kind := w.enumValueKey(right)
		if kind == "" || seen[key] {
			return nil
		}
		seen[key], kinds[kind] = true, true
		members[w.text(left)] = true
	}
	if kinds["auto"] && (kinds["int"] || kinds["str"]) {
		return nil // auto() counts on from the integers: it may repeat one
	}
	return members
}

// enumValueKey identifies a member's value for the alias check: its kind
// (str, int or auto) and a key equal for equal values.
func (w *evaluator) enumValueKey(n *sitter.Node) (key, kind string) {
	if n.Type() == "call" {
		fn := w.text(n.ChildByFieldName("function"))
		if w.resolve(fn) == "enum.auto" && n.ChildByFieldName("arguments").NamedChildCount() == 0 {
			return "auto" + strconv.Itoa(int(n.StartByte())), "auto"
		}
		if fn == "object" && w.bindings["object"] == 0 && n.ChildByFieldName("arguments").NamedChildCount() == 0 {
			return "object" + strconv.Itoa(int(n.StartByte())), "object"
		}
		return "", ""
	}
	v := w.value(n, 0)
	switch {
	case v.isStr():
		return "s" + v.raw, "str"
	case n.Type() == "integer" || n.Type() == "unary_operator" && v.scalar && !strings.ContainsAny(v.id, ".ej"):
		if v.kind == vText {
			return "i" + v.id, "int"
		}
	}
	return "", ""
}

// attrValue evaluates Class.MEMBER of a module enum: str() is its name.
func (w *evaluator) attrValue(n *sitter.Node) pyVal {
	if f, ok := mathConstants[w.resolve(w.text(n))]; ok {
		return floatVal(f)
	}
	if i, ok := intConstants[w.resolve(w.text(n))]; ok {
		return pyVal{kind: vText, id: i, scalar: true, num: numInt}
	}
	obj, attr := n.ChildByFieldName("object"), n.ChildByFieldName("attribute")
	if obj == nil || attr == nil || obj.Type() != "identifier" {
		return pyVal{kind: vUnknown}
	}
	if w.enums[w.text(obj)][w.text(attr)] {
		return pyVal{kind: vText, id: w.text(obj) + "." + w.text(attr), scalar: true}
	}
	// module.function of a plain import (import m, import m as n).
	mod, ok := w.facts.Imports[w.text(obj)]
	name := w.text(attr)
	if ok && w.bindings[w.text(obj)] == 1 && strings.Contains(mod, ".") && !strings.HasPrefix(name, "__") &&
		!isConstantName(name) && !isClassName(w.text(obj)) && !isConstantName(w.text(obj)) {
		// from pkg import mod; mod.Name: a def or class of the project's
		// module pkg.mod, which the Linker checks.
		return w.assumeDef(mod + "." + name)
	}
	if ok && w.bindings[w.text(obj)] == 1 && stdObjects[mod+"."+name] {
		return pyVal{kind: vObject} // a stream, a list, a mapping, a tzinfo: no __name__
	}
	if !ok || w.bindings[w.text(obj)] != 1 || strings.ContainsAny(mod, ".") || isConstantName(name) {
		return pyVal{kind: vUnknown}
	}
	if isClassName(name) {
		return pyVal{kind: vText, id: name}
	}
	if stdObjects[mod+"."+name] {
		return pyVal{kind: vObject} // a stream, a list, a mapping: no __name__
	}
	return w.assumeFunction(mod + "." + name)
}

// intConstants are standard-library integers the same in every Python
// pytest 9 runs on (3.10 and later).
var intConstants = map[string]string{"pickle.HIGHEST_PROTOCOL": "5"}

// stdObjects are standard-library module attributes that are neither
// functions nor classes: objects without a __name__, which pytest names
// argname+index.
var stdObjects = map[string]bool{"sys.stdin": true, "sys.stdout": true, "sys.stderr": true,
	"sys.__stdin__": true, "sys.__stdout__": true, "sys.__stderr__": true, "sys.argv": true,
	"sys.path": true, "sys.modules": true, "sys.flags": true, "sys.float_info": true,
	"sys.int_info": true, "sys.hash_info": true, "sys.version_info": true, "sys.meta_path": true,
	"sys.path_hooks": true, "sys.warnoptions": true, "os.environ": true, "os.environb": true,
	"datetime.UTC": true}

// maxStrLen bounds the strings "s" * n may build.
const maxStrLen = 100000

// binaryValue evaluates arithmetic on numbers, str + str, bytes + bytes
// and str * int (either order): long IDs and repeated patterns are often
// written so. An instance plus or minus a value is an instance.
func (w *evaluator) binaryValue(n *sitter.Node, depth int) pyVal {
	l, r := w.value(n.ChildByFieldName("left"), depth+1), w.value(n.ChildByFieldName("right"), depth+1)
	op := w.text(n.ChildByFieldName("operator"))
	if l.num != numNone && r.num != numNone {
		return arith(op, l, r)
	}
	if (l.kind == vObject && r.kind != vUnknown || r.kind == vObject && l.kind != vUnknown) && (op == "+" || op == "-") {
		return pyVal{kind: vObject} // now - timedelta(...), [1] + [2]: an instance again
	}
	if l.kind != vText || r.kind != vText {
		return pyVal{kind: vUnknown}
	}
	switch op {
	case "+":
		if l.str && r.str && l.bytes == r.bytes && len(l.raw)+len(r.raw) <= maxStrLen {
			return w.strVal(l.raw+r.raw, l.bytes)
		}
	case "*":
		if r.str {
			l, r = r, l
		}
		count, err := strconv.Atoi(r.id)
		if l.str && r.scalar && err == nil && len(l.raw)*max(count, 0) <= maxStrLen {
			return w.strVal(strings.Repeat(l.raw, max(count, 0)), l.bytes)
		}
	}
	return pyVal{kind: vUnknown}
}

// patternValue evaluates re.compile(literal): pytest's ID is the pattern,
// always ascii_escaped (the ini option does not apply).
func (w *evaluator) patternValue(n *sitter.Node) pyVal {
	args := children(n.ChildByFieldName("arguments"))
	if len(args) == 0 || args[0].Type() == "keyword_argument" {
		return pyVal{kind: vUnknown}
	}
	p := w.value(args[0], 1)
	if !p.str || p.kind != vText {
		return pyVal{kind: vUnknown}
	}
	id := asciiEscaped(p.raw)
	if p.bytes {
		id = asciiEscapedBytes(p.raw)
	}
	return pyVal{kind: vText, id: id, pattern: true}
}

// literal returns the value of a module-level NAME = value when that is
// the name's only binding: a name also imported, defined or assigned in
// another branch (try: import ... except: NAME = None) is not known.
func (w *evaluator) literal(name string) (*sitter.Node, bool) {
	v, ok := w.literals[name]
	return v, ok && w.bindings[name] == 1
}

// identValue evaluates a name as pytest's ID sees it: a literal's value,
// a builtin's or a module-level function's or class's __name__, an
// imported module's dotted name, or an imported class's own name.
func (w *evaluator) identValue(name string, depth int) pyVal {
	if e, ok := w.locals[name]; ok {
		return w.elemValue(e, depth)
	}
	if w.bindings[name] > 1 {
		return pyVal{kind: vUnknown}
	}
	if v, ok := w.literals[name]; ok {
		m, ok := w.identMemo[name]
		if !ok {
			saved, locals := w.assumed, w.locals
			w.assumed, w.locals = nil, nil
			m.v = w.value(v, depth+1)
			m.assumed, w.assumed, w.locals = w.assumed, saved, locals
			if w.identMemo == nil {
				w.identMemo = map[string]memoVal{}
			}
			w.identMemo[name] = m
		}
		for _, a := range m.assumed {
			if !slices.Contains(w.assumed, a) {
				w.assumed = append(w.assumed, a)
			}
		}
		return m.v
	}
	if w.defined[name] {
		return pyVal{kind: vText, id: name}
	}
	if w.bindings[name] == 0 && builtinAliases[name] != "" {
		return pyVal{kind: vText, id: builtinAliases[name]}
	}
	if w.bindings[name] == 0 && builtinNames[name] {
		return pyVal{kind: vText, id: name}
	}
	orig, ok := w.facts.Imports[name]
	if !ok || isConstantName(name) {
		return pyVal{kind: vUnknown}
	}
	last := orig[strings.LastIndex(orig, ".")+1:]
	switch {
	case !strings.Contains(orig, "."):
		return pyVal{kind: vText, id: orig} // import json: the module json
	case isClassName(last):
		// from x import Name: a class, whose __name__ is the name it
		// was defined with.
		return pyVal{kind: vText, id: last}
	}
	return w.assumeFunction(orig)
}

// stdPackages are standard-library packages with submodules: a name
// imported from one may be a module (from os import path: posixpath).
var stdPackages = map[string]bool{"os": true, "xml": true, "email": true, "json": true, "http": true,
	"urllib": true, "importlib": true, "concurrent": true, "logging": true, "unittest": true,
	"multiprocessing": true, "collections": true, "encodings": true, "ctypes": true, "curses": true,
	"dbm": true, "html": true, "sqlite3": true, "tkinter": true, "wsgiref": true, "xmlrpc": true,
	"asyncio": true, "zoneinfo": true, "re": true, "distutils": true, "lib2to3": true, "test": true}

// assumeFunction is the value of an imported lowercase name (from x
// import name, or module.name): a function, whose __name__ is its name,
// or a submodule, whose __name__ is dotted. Only the import system can
// tell; the table records the assumption for the Linker to check against
// the project's modules. Names from the standard library's packages stay
// unknown.
func (w *evaluator) assumeFunction(dotted string) pyVal {
	first, _, _ := strings.Cut(dotted, ".")
	if stdPackages[first] {
		return pyVal{kind: vUnknown}
	}
	if !slices.Contains(w.assumed, dotted) {
		w.assumed = append(w.assumed, dotted)
	}
	return pyVal{kind: vText, id: dotted[strings.LastIndex(dotted, ".")+1:]}
}

// defMark marks, in table.Assumed, the dotted name of an imported
// module's attribute taken for a def or a class of that module, which
// must be a module of the project (assumeDef).
const defMark = "def:"

// assumeDef evaluates mod.Name where mod is a name imported from a
// package (from marshmallow import fields; fields.String): taken for a
// function or class that module binds once by def or class, whose
// __name__ is Name. The Linker checks that pkg.mod is a module of the
// project and binds Name so (classes.isDef), else the table is dynamic.
// (A package whose __init__ binds mod to something else than its
// submodule would defeat this; nothing here reads such bindings.)
func (w *evaluator) assumeDef(dotted string) pyVal {
	if a := defMark + dotted; !slices.Contains(w.assumed, a) {
		w.assumed = append(w.assumed, a)
	}
	return pyVal{kind: vText, id: dotted[strings.LastIndex(dotted, ".")+1:]}
}

// memoVal is a module-level name's value and the assumptions it needed.
type memoVal struct {
	v       pyVal
	assumed []string
}

// constPlaceholder stands for an imported constant in a row's ID until
// the Linker reads its str() in the constant's module; fallback is the
// ID should the constant be an instance (argname+index).
func constPlaceholder(dotted, fallback string) string {
	return "\x00" + dotted + "\x01" + fallback + "\x00"
}

// constObject marks, in fileFacts.Consts, a constant bound to an instance
// (NAME = SomeClass()): pytest names it argname+index.
const constObject = "\x00object"

// deferConst is the value of an imported constant (from m import UNSET)
// as a row's own value: its ID is known only in its module, which the
// Linker reads (table.Consts). Standard-library names stay unknown.
func (w *evaluator) deferConst(dotted string) pyVal {
	first, _, _ := strings.Cut(dotted, ".")
	if stdPackages[first] || !strings.Contains(strings.TrimLeft(dotted, "."), ".") {
		return pyVal{kind: vUnknown}
	}
	if !slices.Contains(w.consts, dotted) {
		w.consts = append(w.consts, dotted)
	}
	return pyVal{kind: vText, id: dotted, scalar: true, deferred: true}
}

// importedSeq is the dotted name of the imported constant (from m import
// NAME, m a module of the project) that is the whole argvalues of a
// one-name table without ids=; "" otherwise.
func (w *evaluator) importedSeq(names []string, values, ids *sitter.Node) string {
	if len(names) != 1 || ids != nil || values == nil || unparen(values).Type() != "identifier" {
		return ""
	}
	name := w.text(unparen(values))
	if _, local := w.locals[name]; local || w.bindings[name] != 1 || !isConstantName(name) {
		return ""
	}
	if _, inClass, _ := w.classBinding(unparen(values)); inClass {
		return ""
	}
	dotted, ok := w.facts.Imports[name]
	first, _, _ := strings.Cut(dotted, ".")
	if !ok || stdPackages[first] || !strings.Contains(strings.TrimLeft(dotted, "."), ".") {
		return ""
	}
	return dotted
}

// seqConstants records in fileFacts.Seqs the module's constants bound
// to a sequence whose elements' IDs are known with no assumption.
func (w *walker) seqConstants() {
	for name, n := range w.literals {
		if !isConstantName(name) || w.bindings[name] != 1 {
			continue
		}
		switch unparen(n).Type() {
		case "list", "tuple":
		default:
			continue
		}
		if ids, ok := w.seqIDs(n); ok {
			if w.facts.Seqs == nil {
				w.facts.Seqs = map[string][]string{}
			}
			w.facts.Seqs[name] = ids
		}
	}
}

// seqIDs evaluates a sequence's elements' IDs (constObject for an
// object) when none needs an assumption or a constant of another module.
func (w *walker) seqIDs(n *sitter.Node) ([]string, bool) {
	w.steps, w.evals = 0, 0
	savedA, savedC := w.assumed, w.consts
	w.assumed, w.consts = nil, nil
	defer func() { w.assumed, w.consts = savedA, savedC }()
	elems, ok := w.argvalues(n, 0)
	if !ok || len(elems) > 1000 {
		return nil, false
	}
	ids := make([]string, len(elems))
	for i, e := range elems {
		w.assumed, w.consts = nil, nil
		v := w.rowValue(e, nil)
		v = w.longString(v)
		defs, ok := defsOnly(w.assumed)
		switch {
		case !ok || v.deferred && (len(defs) > 0 || len(w.consts) != 1):
			return nil, false
		case v.deferred:
			// An imported constant: its module's str() of it, or its
			// __name__ when it binds the name by def or class.
			ids[i] = defIDPrefix + constMark + v.id + defIDPrefix
		case v.kind == vText && len(defs) > 0:
			ids[i] = defIDPrefix + defMark + strings.Join(defs, "\x03"+defMark) + defIDPrefix + v.id
		case v.kind == vText:
			ids[i] = v.id
		case v.kind == vObject:
			ids[i] = constObject
		default:
			return nil, false
		}
	}
	return ids, true
}

// defIDPrefix opens and closes, in fileFacts.Seqs, the assumptions an
// element's ID needs (defMark's dotted names, or one constMark's, joined
// by \x03), which the Linker checks in the module that binds the
// sequence.
const defIDPrefix = "\x02"

// constMark marks an imported constant whose ID its module gives
// (classes.constID).
const constMark = "const:"

// defsOnly returns the dotted names of assumptions that are all defMark's,
// ok false when another kind is among them.
func defsOnly(assumed []string) ([]string, bool) {
	var out []string
	for _, a := range assumed {
		d, ok := strings.CutPrefix(a, defMark)
		if !ok {
			return nil, false
		}
		out = append(out, d)
	}
	return out, true
}

// plainShort reports a str pytest's ID keeps as it is whatever the
// escaping option and the long-str strategy: printable ASCII, no
// backslash, at most 100 characters.
func plainShort(s string) bool {
	if len(s) > 100 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' || s[i] == '\\' {
			return false
		}
	}
	return true
}

// constants records the module's constants whose str() is known
// (fileFacts.Consts): UPPER names bound once to a number, a bool, None,
// a short printable str or a member of the module's enums, directly or through another such
// name, and those bound to an instance (constObject).
func (w *evaluator) constants() {
	for name, n := range w.literals {
		if !isConstantName(name) || w.bindings[name] != 1 {
			continue
		}
		switch unparen(n).Type() {
		case "identifier", "attribute", "integer", "float", "true", "false", "none", "unary_operator", "call", "string":
		default:
			continue
		}
		saved := w.assumed
		w.assumed = nil
		v := w.value(n, 1)
		clean := len(w.assumed) == 0
		w.assumed = saved
		id := v.id
		switch {
		case !clean || v.deferred:
			continue
		case v.isStr():
			if !plainShort(v.raw) {
				continue // escaping and the long-str rule are the importing project's
			}
		case unparen(n).Type() == "call" && v.kind == vObject && v.repr == "":
			id = constObject
		case v.kind != vText || !v.scalar:
			continue
		}
		if w.facts.Consts == nil {
			w.facts.Consts = map[string]string{}
		}
		w.facts.Consts[name] = id
	}
}
