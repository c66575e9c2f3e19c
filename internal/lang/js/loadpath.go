package js

import (
	"path"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Paths a test file computes to load other files (require(path.resolve(
// __dirname, 'units', file))) are evaluated to a string in which two
// markers stand for what only the running process knows: the folder of
// the file (__dirname) and the working folder (process.cwd(), where
// relative file system paths start: the project folder, from which the
// frameworks run). A third stands for the entry of a readdirSync loop.
// The linker turns the markers into folders; nothing else ever sees them.
const (
	fileDirMark = "\x01F" // __dirname
	cwdMark     = "\x01C" // process.cwd()
	entryMark   = "\x00"  // the name a readdirSync loop is at
)

// absPath reports whether p starts at a marked folder.
func absPath(p string) bool { return strings.HasPrefix(p, "\x01") }

// cleanPath normalises p as node's path.normalize does, keeping a marker
// at its head: leading ".." segments stay (a marked folder's parent is
// still known to the linker).
func cleanPath(p string) string {
	if !absPath(p) {
		return path.Clean(p)
	}
	mark, rest := p[:2], strings.TrimPrefix(p[2:], "/")
	if rest = path.Clean(rest); rest == "." {
		return mark
	}
	return mark + "/" + rest
}

// builtins are the node modules whose functions the path evaluator knows,
// by the names they are imported under.
var builtins = map[string]string{"path": "path", "node:path": "path", "fs": "fs", "node:fs": "fs",
	"fs-extra": "fs", "graceful-fs": "fs", "url": "url", "node:url": "url",
	"os": "os", "node:os": "os", "http": "http", "node:http": "http"}

// nodeBinding is a module-level binding of a node module (mod) or of one of
// its functions (mod and member).
type nodeBinding struct{ mod, member string }

// builtinBindings reads, once, the module-level bindings of the modules
// in builtins: const path = require('path'), const {join} =
// require('node:path'), import * as fs from 'fs', import {readdirSync}
// from 'fs', const p = require('path').posix.
func (w *walker) builtinBindings() map[string]nodeBinding {
	if w.builtins != nil {
		return w.builtins
	}
	w.builtins = map[string]nodeBinding{}
	for i := 0; i < int(w.root.NamedChildCount()); i++ {
		n := w.root.NamedChild(i)
		switch n.Type() {
		case "import_statement":
			src := n.ChildByFieldName("source")
			if src == nil || builtins[unescape(w.text(src), 1)] == "" {
				continue
			}
			mod := builtins[unescape(w.text(src), 1)]
			w.eachImport(n, func(local, imported string) {
				if imported == "default" || imported == "*" {
					imported = ""
				}
				w.builtins[local] = nodeBinding{mod, imported}
			})
		case "lexical_declaration", "variable_declaration":
			for j := 0; j < int(n.NamedChildCount()); j++ {
				if d := n.NamedChild(j); d.Type() == "variable_declarator" {
					w.builtinDeclarator(d)
				}
			}
		}
	}
	return w.builtins
}

func (w *walker) builtinDeclarator(d *sitter.Node) {
	name, val := d.ChildByFieldName("name"), d.ChildByFieldName("value")
	if name == nil || val == nil {
		return
	}
	mod, member := w.requiredBuiltin(val)
	if mod == "" {
		return
	}
	switch name.Type() {
	case "identifier":
		w.builtins[w.text(name)] = nodeBinding{mod, member}
	case "object_pattern":
		if member != "" {
			return
		}
		for k := 0; k < int(name.NamedChildCount()); k++ {
			p := name.NamedChild(k)
			switch p.Type() {
			case "shorthand_property_identifier_pattern":
				w.builtins[w.text(p)] = nodeBinding{mod, w.text(p)}
			case "pair_pattern":
				key, v := p.ChildByFieldName("key"), p.ChildByFieldName("value")
				if k, ok := w.propertyKey(key); ok && v != nil && v.Type() == "identifier" {
					w.builtins[w.text(v)] = nodeBinding{mod, k}
				}
			}
		}
	}
}

// requiredBuiltin reads require('path') and require('path').posix (a
// namespace: member stays "") or require('fs').readdirSync (member).
func (w *walker) requiredBuiltin(n *sitter.Node) (mod, member string) {
	switch n.Type() {
	case "call_expression":
		fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
		if fn == nil || args == nil || w.text(fn) != "require" || args.NamedChildCount() != 1 {
			return "", ""
		}
		if a := args.NamedChild(0); a.Type() == "string" {
			return builtins[unescape(w.text(a), 1)], ""
		}
	case "member_expression":
		mod, member := w.requiredBuiltin(n.ChildByFieldName("object"))
		p := n.ChildByFieldName("property")
		if mod == "" || member != "" || p == nil {
			return "", ""
		}
		if mod == "path" && (w.text(p) == "posix" || w.text(p) == "default") {
			return mod, ""
		}
		return mod, w.text(p)
	}
	return "", ""
}

// builtinCall names the node function a callee expression stands for:
// path.join, fs.readdirSync, join (imported from path), path.posix.join,
// require('path').resolve. mod is "" for anything else.
func (w *walker) builtinCall(fn *sitter.Node) (mod, name string) {
	switch fn.Type() {
	case "identifier":
		if b, ok := w.builtinBindings()[w.text(fn)]; ok && b.member != "" && !w.localBinding(fn) {
			return b.mod, b.member
		}
	case "member_expression":
		obj, p := fn.ChildByFieldName("object"), fn.ChildByFieldName("property")
		if obj == nil || p == nil || optional(fn) {
			return "", ""
		}
		if obj.Type() == "identifier" {
			if b, ok := w.builtinBindings()[w.text(obj)]; ok && b.member == "" && !w.localBinding(obj) {
				return b.mod, w.text(p)
			}
			return "", ""
		}
		if obj.Type() == "member_expression" { // path.posix.join
			if mod, sub := w.builtinCall(obj); mod == "path" && (sub == "posix" || sub == "default") {
				return mod, w.text(p)
			}
			return "", ""
		}
		if mod, member := w.requiredBuiltin(obj); mod != "" && member == "" {
			return mod, w.text(p)
		}
	}
	return "", ""
}

// localBinding reports whether an identifier names a binding of a block
// or a loop rather than the module-level one (a parameter called path).
func (w *walker) localBinding(id *sitter.Node) bool {
	name := w.text(id)
	if w.env.lookup(name) != nil {
		return true
	}
	def, _ := w.localConst(id, name)
	return def != nil
}

// maxPathDepth bounds the definitions a path expression follows.
const maxPathDepth = 16

// pathOf evaluates a path or module specifier expression: string
// literals, template literals, +, the constants and loop variables
// holding them, __dirname, __filename, import.meta.dirname and filename,
// process.cwd(), fileURLToPath(import.meta.url), and path's join,
// resolve, dirname and normalize. entry names the variable a readdirSync
// loop binds ("" when none); it becomes entryMark. ok is false for
// anything else.
func (w *walker) pathOf(n *sitter.Node, entry string, depth int) (string, bool) {
	if n == nil || depth > maxPathDepth {
		return "", false
	}
	switch n.Type() {
	case "string":
		return unescape(w.text(n), 1), true
	case "template_string":
		return w.templatePath(n, entry, depth)
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return w.pathOf(n.NamedChild(0), entry, depth+1)
		}
	case "binary_expression":
		op := n.ChildByFieldName("operator")
		if op == nil || w.text(op) != "+" {
			return "", false
		}
		a, okA := w.pathOf(n.ChildByFieldName("left"), entry, depth+1)
		b, okB := w.pathOf(n.ChildByFieldName("right"), entry, depth+1)
		return a + b, okA && okB
	case "identifier":
		return w.identPath(n, entry, depth)
	case "member_expression":
		switch w.text(n) {
		case "import.meta.dirname":
			return fileDirMark, true
		case "import.meta.filename":
			return fileDirMark + "/" + path.Base(w.file), w.file != ""
		}
	case "call_expression":
		return w.callPath(n, entry, depth)
	}
	if v := w.eval(n, 0); v.kind == kString {
		return v.str, true
	}
	return "", false
}

func (w *walker) templatePath(n *sitter.Node, entry string, depth int) (string, bool) {
	var b strings.Builder
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "template_substitution":
			if c.NamedChildCount() != 1 {
				return "", false
			}
			s, ok := w.pathOf(c.NamedChild(0), entry, depth+1)
			if !ok {
				return "", false
			}
			b.WriteString(s)
		case "string_fragment", "escape_sequence":
			b.WriteString(unescape("`"+w.text(c)+"`", 1))
		}
	}
	return b.String(), true
}

func (w *walker) identPath(n *sitter.Node, entry string, depth int) (string, bool) {
	name := w.text(n)
	local, at := w.localConst(n, name)
	if b := w.env.lookup(name); b != nil && (local == nil || at < b.scope) {
		if b.val.kind == kString {
			return b.val.str, true
		}
		return "", false
	}
	if local != nil {
		return w.pathOf(local, entry, depth+1)
	}
	switch {
	case name == entry && entry != "":
		return entryMark, true
	case name == "__dirname":
		return fileDirMark, true
	case name == "__filename":
		return fileDirMark + "/" + path.Base(w.file), w.file != ""
	}
	def, ok := w.consts[name]
	if v, isVar := w.vars[name]; !ok && isVar {
		def, ok = v, true
	}
	if !ok || w.mutated(name) || w.redeclared[name] {
		return "", false
	}
	return w.pathOf(def, entry, depth+1)
}

// callPath evaluates the calls pathOf knows.
func (w *walker) callPath(n *sitter.Node, entry string, depth int) (string, bool) {
	fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	if fn == nil || args == nil {
		return "", false
	}
	if w.text(fn) == "process.cwd" && args.NamedChildCount() == 0 {
		return cwdMark, true
	}
	mod, name := w.builtinCall(fn)
	if mod == "url" && name == "fileURLToPath" && args.NamedChildCount() == 1 && w.text(args.NamedChild(0)) == "import.meta.url" {
		return fileDirMark + "/" + path.Base(w.file), w.file != ""
	}
	if mod != "path" {
		return "", false
	}
	var argv []string
	for i := 0; i < int(args.NamedChildCount()); i++ {
		a := args.NamedChild(i)
		if a.Type() == "comment" {
			continue
		}
		s, ok := w.pathOf(a, entry, depth+1)
		if !ok {
			return "", false
		}
		argv = append(argv, s)
	}
	return joinPaths(name, argv)
}

// joinPaths is path.join, path.resolve, path.dirname and path.normalize
// over marked paths. A path starting at "/" (a real absolute path) is not
// followed: it is not the project's.
func joinPaths(fn string, argv []string) (string, bool) {
	for i, a := range argv {
		if strings.HasPrefix(a, "/") || (i > 0 && fn != "resolve" && absPath(a)) {
			return "", false
		}
	}
	switch fn {
	case "join":
		if len(argv) == 0 {
			return ".", true
		}
		return cleanPath(strings.Join(argv, "/")), true
	case "normalize":
		if len(argv) != 1 {
			return "", false
		}
		return cleanPath(argv[0]), true
	case "dirname":
		if len(argv) != 1 || !absPath(argv[0]) {
			return "", false
		}
		return cleanPath(argv[0] + "/.."), true
	case "resolve":
		start := 0
		for i := len(argv) - 1; i >= 0; i-- {
			if absPath(argv[i]) {
				start = i
				break
			}
		}
		parts := argv[start:]
		if len(parts) == 0 || !absPath(parts[0]) {
			parts = append([]string{cwdMark}, parts...)
		}
		return cleanPath(strings.Join(parts, "/")), true
	}
	return "", false
}

// jsExtensions are the files a require or import may load as code.
var jsExtensions = map[string]bool{".js": true, ".cjs": true, ".mjs": true, ".jsx": true,
	".ts": true, ".tsx": true, ".mts": true, ".cts": true}

// dataSpecifier reports whether a specifier expression ends with a
// literal naming a file that is not code (fixtures + '.json'): loading it
// cannot declare tests.
func (w *walker) dataSpecifier(n *sitter.Node) bool {
	for depth := 0; n != nil && depth < maxPathDepth; depth++ {
		switch n.Type() {
		case "string":
			ext := path.Ext(unescape(w.text(n), 1))
			return ext != "" && !jsExtensions[ext] && !strings.ContainsAny(ext, "/\\")
		case "template_string":
			k := int(n.NamedChildCount())
			if k == 0 || n.NamedChild(k-1).Type() != "string_fragment" {
				return false
			}
			ext := path.Ext(w.text(n.NamedChild(k - 1)))
			return ext != "" && !jsExtensions[ext]
		case "binary_expression":
			n = n.ChildByFieldName("right")
		case "call_expression":
			args := n.ChildByFieldName("arguments")
			if args == nil || args.NamedChildCount() == 0 {
				return false
			}
			n = args.NamedChild(int(args.NamedChildCount()) - 1)
		default:
			return false
		}
	}
	return false
}
