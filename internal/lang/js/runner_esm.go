package js

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex/internal/lang/tsgrammars"
	"github.com/testdex/testdex/internal/state"
)

// Whether the counting recorder needs node's ES module hooks.
//
// The recorder instruments ES modules through module.register's loader
// hooks, which run in a thread of their own: starting it costs each node
// process about 45 ms of CPU (node 20), more than the rest of the
// recorder, and node:test starts a process per test file. A project none
// of whose files node can load as an ES module has no use for them.
// esmFree tells so, conservatively: any doubt keeps the hooks.

// esmScanLimit and esmScanBytes bound the files esmFree looks at and the
// bytes it reads: a larger project keeps the hooks rather than pay for
// the walk.
const (
	esmScanLimit = 20000
	esmScanBytes = 16 << 20
)

// moduleWords are the words without which a file has no module syntax
// (an import or export statement, import.meta, a top-level await).
var moduleWords = regexp.MustCompile(`\b(import|export|await)\b`)

// esmFree reports whether no file of the project at dir can run as an ES
// module of its own, under node's rules (recent node, 20.20 here, detects
// module syntax in files no package.json types): no .mjs or .mts file, no
// package.json of type "module" (nor, for a folder without one, the
// nearest above it), and no .js, .jsx or hashbang file with
// module syntax. TypeScript files with module syntax are told apart
// (tsModules): node runs them only where it strips types itself. The
// project's node_modules are not read (a linked workspace package is read
// where it lies, when that is inside the project); a file that cannot be
// read or parsed counts as a module.
func esmFree(dir string, memo *esmMemo) (free, tsModules bool) {
	n := 0
	free = true
	memo.budget = esmScanBytes
	if outerModule(dir) {
		return false, false
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // unreadable: nothing node could load either
		}
		name := d.Name()
		if d.IsDir() {
			if p != dir && (name == "node_modules" || name == ".git") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			// What a link leads to is not walked: with --preserve-symlinks
			// node runs it under the project's name.
			free = false
			return fs.SkipAll
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if n++; n > esmScanLimit {
			return fs.SkipAll
		}
		switch kind := esmKind(p, name, memo); kind {
		case esmYes:
			free = false
			return fs.SkipAll
		case esmTS:
			tsModules = true
		}
		return nil
	})
	if err != nil || n > esmScanLimit || memo.budget < 0 {
		return false, tsModules
	}
	return free, tsModules
}

const (
	esmNo  = iota // not an ES module
	esmYes        // an ES module, or maybe one
	esmTS         // a TypeScript file with module syntax
)

// esmKind tells what node could make of one file (memo keeps the
// parses' verdicts by content).
func esmKind(p, name string, memo *esmMemo) int {
	ext := filepath.Ext(name)
	switch {
	case ext == ".mjs" || ext == ".mts":
		return esmYes
	case name == "package.json":
		return packageModule(p)
	case strings.HasSuffix(name, ".d.ts") || strings.HasSuffix(name, ".d.mts") || strings.HasSuffix(name, ".d.cts"):
		return esmNo // declarations never run
	case ext == ".js" || ext == ".jsx" || ext == ".ts" || ext == ".tsx":
	case ext == "":
		if !hashbangNode(p) {
			return esmNo
		}
	default:
		return esmNo
	}
	data, err := os.ReadFile(p)
	if memo.budget -= int64(len(data)); err != nil || memo.budget < 0 {
		return esmYes
	}
	if !memo.moduleSyntax(name, data) {
		return esmNo
	}
	if ext == ".ts" || ext == ".tsx" {
		return esmTS
	}
	return esmYes
}

// outerModule reports whether the package.json that types the files of
// a project folder without one, the nearest above it, is of type module.
func outerModule(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "package.json")); err == nil {
			return d != dir && packageModule(filepath.Join(d, "package.json")) == esmYes
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// packageModule is esmYes for a package.json whose type is not
// "commonjs" (a package.json that cannot be read counts as "module").
func packageModule(p string) int {
	data, err := os.ReadFile(p)
	if err != nil {
		return esmYes
	}
	var pkg struct {
		Type *string `json:"type"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return esmYes
	}
	if pkg.Type != nil && *pkg.Type != "commonjs" {
		return esmYes
	}
	return esmNo
}

// hashbangNode reports whether an extensionless file starts with a
// hashbang naming node: a script node may run or require.
func hashbangNode(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 128)
	k, _ := f.Read(head)
	head = head[:k]
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	return bytes.HasPrefix(head, []byte("#!")) && bytes.Contains(head, []byte("node"))
}

// moduleSyntax reports whether a file has syntax only an ES module
// allows: an import or export statement, import.meta, an await (or a for
// await) outside every function. A file tree-sitter cannot parse whole
// counts as having it.
func moduleSyntax(name string, data []byte) bool {
	if !moduleWords.Match(data) {
		return false
	}
	tree, err := tsgrammars.Parse(grammar(name), data)
	if err != nil {
		return true
	}
	defer tree.Close()
	root := tree.RootNode()
	if root.HasError() {
		return true
	}
	found := false
	tsgrammars.Walk(root, func(n *sitter.Node) bool {
		if found {
			return false
		}
		switch n.Type() {
		case "import_statement", "export_statement", "await_expression":
			found = true
		case "meta_property": // import.meta (new.target too: rare outside functions)
			found = strings.HasPrefix(nodeText(n, data), "import")
		case "import": // import.meta, as the JavaScript grammar has it; not import()
			p := n.Parent()
			found = p != nil && p.Type() == "member_expression"
		case "for_in_statement":
			for i := 0; i < int(n.ChildCount()); i++ {
				found = found || n.Child(i).Type() == "await"
			}
		case "function_declaration", "function_expression", "function", "arrow_function", "method_definition",
			"generator_function", "generator_function_declaration":
			return false // an await inside belongs to the function
		}
		return !found
	})
	return found
}

// nodeText is a node's source.
func nodeText(n *sitter.Node, data []byte) string {
	a, b := n.StartByte(), n.EndByte()
	if int(b) > len(data) || a > b {
		return ""
	}
	return string(data[a:b])
}

// projectModules is what the recorder is told of the project's ES
// modules: "no" when none of its files can be one, "ts" when only
// TypeScript files can (where node strips types itself), "" otherwise.
func projectModules(dir, cache string) string {
	memo := readEsmMemo(cache, dir)
	free, ts := esmFree(realDir(dir), memo)
	memo.write()
	switch {
	case !free:
		return ""
	case ts:
		return "ts"
	}
	return "no"
}

// esmMemo keeps moduleSyntax's verdicts under the cache folder, by the
// grammar and the xxh3 of the source, so that a later run parses only
// what changed (light-my-request's test files: about 0.1 s of parsing).
type esmMemo struct {
	path    string // "" without a cache folder
	seen    map[string]bool
	used    map[string]bool // the verdicts of this run, the ones written back
	changed bool
	budget  int64 // the bytes esmFree may still read
}

// esmMemoKind is the memo's state kind; another moduleSyntax, another kind.
const esmMemoKind = "js-modules-1"

func readEsmMemo(cache, root string) *esmMemo {
	m := &esmMemo{seen: map[string]bool{}, used: map[string]bool{}}
	if cache == "" {
		return m
	}
	m.path = state.Path(cache, esmMemoKind, root, "json")
	if data, err := state.Read(m.path); err == nil && json.Unmarshal(data, &m.seen) != nil {
		m.seen = map[string]bool{}
	}
	return m
}

// moduleSyntax is the package's moduleSyntax, remembered.
func (m *esmMemo) moduleSyntax(name string, data []byte) bool {
	if !moduleWords.Match(data) {
		return false
	}
	key := filepath.Ext(name) + ":" + strconv.FormatUint(xxh3.Hash(data), 16)
	v, ok := m.seen[key]
	if !ok {
		v = moduleSyntax(name, data)
		m.seen[key], m.changed = v, true
	}
	m.used[key] = v
	return v
}

// write saves this run's verdicts, when a new one was made (an error
// only costs the next run its parses).
func (m *esmMemo) write() {
	if m.path == "" || !m.changed {
		return
	}
	data, _ := json.Marshal(m.used)
	_ = state.Write(m.path, data)
}
