package js

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Titles read from a folder of the project (dayjs's
// fs.readdirSync(path.join(__dirname, '../../src/locale')).forEach(file =>
// Locale.push({ content: require(path.join(..., file)).default }))) are
// read in two steps, as imported tables are: the extractor notes in the
// file's Facts the folders a title needed, and the linker, on every
// listing, reads their entries (sorted by name, byte by byte, as node's
// readdirSync gives them) and extracts the file again with them and with
// the modules a computed require of a project file loads, read as
// literals like any local module (both through the project's cache, see
// linkcache.go). Nothing
// is run; a folder outside the project, or one that cannot be read,
// leaves the title dynamic.

// maxFolderEntries bounds the entries a folder gives a title.
const maxFolderEntries = 5000

// folderValue evaluates fs.readdirSync(dir) with no options, of a folder
// the source names from __dirname or process.cwd(), and require(path) of
// such a computed path, once the linker supplied them; before, it notes
// the folder a title needed. ok is false for anything else.
func (w *walker) folderValue(n *sitter.Node) (value, bool) {
	fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	if fn == nil || args == nil || args.Type() != "arguments" || args.NamedChildCount() != 1 {
		return value{}, false
	}
	arg := args.NamedChild(0)
	if fn.Type() == "identifier" && w.text(fn) == "require" {
		if w.requireValue == nil || arg.Type() == "string" || w.shadowed(fn, "require") || w.fnDecls["require"] != nil {
			return value{}, false
		}
		p, ok := w.pathOf(arg, "", 0)
		if !ok || !absPath(p) || strings.Contains(p, entryMark) {
			return value{}, false
		}
		return w.requireValue(cleanPath(p))
	}
	if mod, name := w.builtinCall(fn); mod != "fs" || name != "readdirSync" {
		return value{}, false
	}
	p, ok := w.pathOf(arg, "", 0)
	if !ok || !absPath(p) || strings.Contains(p, entryMark) {
		return value{}, false
	}
	p = cleanPath(p)
	if w.dirs == nil {
		w.needDirs = append(w.needDirs, p)
		return value{}, false
	}
	entries, ok := w.dirs[p]
	if !ok {
		return value{}, false
	}
	out := value{kind: kArray, arr: make([]value, len(entries))}
	for i, e := range entries {
		out.arr[i] = str(e)
	}
	return out, true
}

// sortedSet is s sorted, each element once; nil when s is empty.
func sortedSet(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	out := append([]string(nil), s...)
	sort.Strings(out)
	k := 0
	for i, e := range out {
		if i == 0 || e != out[k-1] {
			out[k] = e
			k++
		}
	}
	return out[:k]
}

// readDirs reads the entries of the marked folders of a test file in
// dir, for its titles: folders of the project only (not node_modules),
// each sorted by name; a folder it cannot read is left out.
func readDirs(root, dir string, marked []string) map[string][]string {
	if len(marked) == 0 {
		return nil
	}
	out := map[string][]string{}
	for _, m := range marked {
		abs := unmarkPath(root, dir, m)
		if !inProjectDir(root, abs) {
			continue
		}
		entries, err := os.ReadDir(abs) // sorted by name, as libuv's scandir sorts
		if err != nil || len(entries) > maxFolderEntries {
			continue
		}
		names := make([]string, len(entries))
		for i, e := range entries {
			names[i] = e.Name()
		}
		out[m] = names
	}
	return out
}

// maxRequired bounds the modules a file's computed requires load.
const maxRequired = 5000

// requirer returns the function that reads, for a test file in dir, the
// module a computed require of a marked path loads: a JavaScript,
// TypeScript or JSON file of the project, its exports read as literals
// (module.exports, or an ES module's namespace, as require gives it).
func requirer(fw testdex.Framework, p *lang.Project, dir string) func(string) (value, bool) {
	loaded := 0
	return func(m string) (value, bool) {
		file := nodeModuleFile(unmarkPath(p.Dir, dir, m))
		if file == "" || !inProjectDir(p.Dir, file) || !jsExtensions[extname(file)] && extname(file) != ".json" || loaded >= maxRequired {
			return value{}, false
		}
		loaded++
		mod := loadModule(fw, p, []string{file})
		if mod == nil {
			return value{}, false
		}
		return exported(mod, "*")
	}
}

// unmarkPath turns a marked path into an absolute one: the loading
// file's folder is dir, the working folder the project's, root.
func unmarkPath(root, dir, m string) string {
	switch {
	case strings.HasPrefix(m, fileDirMark):
		return filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(m, fileDirMark)))
	case strings.HasPrefix(m, cwdMark):
		return filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(m, cwdMark)))
	}
	return filepath.Join(dir, filepath.FromSlash(m))
}

// inProjectDir reports whether a path is the project's own: under root,
// not in node_modules.
func inProjectDir(root, abs string) bool {
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return false
	}
	rel = filepath.ToSlash(rel)
	return rel != ".." && !strings.HasPrefix(rel, "../") && !strings.Contains("/"+rel+"/", "/node_modules/")
}

// pathCall evaluates path.basename(p[, ext]) and path.extname(p) of
// strings, as node's posix path module does (js-yaml's
// it(path.basename(file, '.js')) over a folder's entries); not on
// Windows, where path is win32's.
func (w *walker) pathCall(fn, args *sitter.Node) (value, bool) {
	mod, name := w.builtinCall(fn)
	if mod != "path" || (name != "basename" && name != "extname") || runtime.GOOS == "windows" {
		return value{}, false
	}
	argv, ok := w.args(args, 0)
	if !ok || len(argv) == 0 || len(argv) > 2 || argv[0].kind != kString {
		return value{}, false
	}
	if name == "extname" {
		if len(argv) != 1 {
			return value{}, false
		}
		return str(posixExtname(argv[0].str)), true
	}
	if len(argv) == 2 && argv[1].kind != kString && argv[1].kind != kUndefined {
		return value{}, false
	}
	suffix := ""
	if len(argv) == 2 && argv[1].kind == kString {
		suffix = argv[1].str
	}
	return str(posixBasename(argv[0].str, suffix)), true
}

// posixBasename is node's path.posix.basename(p, suffix), suffix "" for
// none.
func posixBasename(p, suffix string) string {
	if suffix != "" && suffix == p {
		return ""
	}
	trimmed := strings.TrimRight(p, "/")
	base := trimmed[strings.LastIndexByte(trimmed, '/')+1:]
	if suffix != "" && len(suffix) <= len(p) && len(base) > len(suffix) && strings.HasSuffix(base, suffix) {
		return base[:len(base)-len(suffix)]
	}
	return base
}

// posixExtname is node's path.posix.extname(p), its loop ported.
func posixExtname(p string) string {
	startDot, startPart, end, matchedSlash, preDot := -1, 0, -1, true, 0
	for i := len(p) - 1; i >= 0; i-- {
		c := p[i]
		if c == '/' {
			if !matchedSlash {
				startPart = i + 1
				break
			}
			continue
		}
		if end == -1 {
			matchedSlash, end = false, i+1
		}
		switch {
		case c == '.' && startDot == -1:
			startDot = i
		case c == '.':
			if preDot != 1 {
				preDot = 1
			}
		case startDot != -1:
			preDot = -1
		}
	}
	if startDot == -1 || end == -1 || preDot == 0 || (preDot == 1 && startDot == end-1 && startDot == startPart+1) {
		return ""
	}
	return p[startDot:end]
}
