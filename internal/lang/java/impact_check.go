package java

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// Broken reports a changed Java file that javac would refuse
// (lang.BuildChecker): Maven and Gradle compile a module's sources as a
// whole, so one file that does not compile fails every test of the
// module, those the class graph reaches and those it does not:
//
//   - a main source (src/main/java, or the module's sourceDirectory, and
//     test fixtures) of the module or of a module it depends on: every
//     test of that module and of the modules that depend on it (the
//     module node's users);
//   - a test source of the module: every test of the module (the node
//     "tests:DIR" its test files use).
//
// What is told without a compiler: a syntax error (tree-sitter's ERROR
// and MISSING nodes: a stray brace, a NUL byte in code), invalid UTF-8
// (javac reads sources as UTF-8 here), and a call to a method that is
// declared nowhere it could come from (callsUndeclared). Other type
// errors (a wrong argument type, a removed method another file calls)
// are not seen: docs/affected.md, "A change that breaks the build".
func (g Grapher) Broken(in *lang.GraphInput, file string, _ []byte) []lang.Break {
	if !strings.HasSuffix(file, ".java") || filepath.Base(file) == "module-info.java" {
		return nil
	}
	node, what := g.unitOf(in, file)
	if node == "" {
		return nil
	}
	data, err := in.ReadFile(filepath.Join(in.Root, filepath.FromSlash(file)))
	if err != nil {
		return nil
	}
	why := javacRefuses(data)
	if why == "" {
		return nil
	}
	return []lang.Break{{Node: node, Why: fmt.Sprintf("%s does not compile (%s); %s", file, why, what)}}
}

// unitOf returns the node whose users a broken file selects, and what
// that is in words; "" for a file that is no source of the module's
// build.
func (g Grapher) unitOf(in *lang.GraphInput, file string) (string, string) {
	br := &buildReader{root: in.Root, read: in.ReadFile}
	mods := br.closure(in.Project.Dir, g.Manifest)
	if len(mods) == 0 || mods[0].dir != in.Project.Dir {
		mods = append([]*module{{dir: in.Project.Dir, mainDir: "src/main/java"}}, mods...)
	}
	abs := filepath.Join(in.Root, filepath.FromSlash(file))
	if under(abs, filepath.Join(mods[0].dir, filepath.FromSlash(g.TestDir))) {
		rel := lang.NodeKey(in.Root, mods[0].dir)
		return testsNode(rel), "every test of module " + rel
	}
	for _, m := range mods {
		for _, dir := range []string{m.mainDir, "src/testFixtures/java"} {
			if under(abs, filepath.Join(m.dir, filepath.FromSlash(dir))) {
				rel := lang.NodeKey(in.Root, m.dir)
				return moduleNode(rel), "every test of module " + rel + " and of the modules that depend on it"
			}
		}
	}
	return "", ""
}

// testsNode names the node every test file of a module uses:
// "tests:core".
func testsNode(rel string) string { return "tests:" + rel }

func under(abs, dir string) bool {
	r, err := filepath.Rel(dir, abs)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// javacRefuses says why javac would refuse a source ("" when nothing
// tells it would).
func javacRefuses(data []byte) string {
	if off, bad := tsgrammars.InvalidUTF8(data); bad {
		return fmt.Sprintf("line %d: invalid UTF-8", tsgrammars.Line(data, off))
	}
	data, nul := blankCommentNULs(data)
	if nul >= 0 {
		return fmt.Sprintf("line %d: a NUL byte", tsgrammars.Line(data, nul))
	}
	tree, err := tsgrammars.Parse(tsgrammars.Java, data)
	if err != nil || tree == nil {
		return "the Java parser gave up on it"
	}
	defer tree.Close()
	if root := tree.RootNode(); root.HasError() {
		p := syntaxProblem(root)
		what, _, _ := strings.Cut(p.Message, ";")
		return fmt.Sprintf("line %d: %s", p.Line, what)
	}
	if name := callsUndeclared(lexJava(data)); name != "" {
		return "it calls " + name + "(), which no class it can see declares"
	}
	return ""
}

// blankCommentNULs returns data with the NUL bytes of its comments made
// spaces (javac accepts them there, the parser does not), and the offset
// of the first NUL byte outside a comment, -1 when there is none.
func blankCommentNULs(data []byte) ([]byte, int) {
	if bytes.IndexByte(data, 0) < 0 {
		return data, -1
	}
	out := bytes.Clone(data)
	comment := byte(0) // '/' in a line comment, '*' in a block comment
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case comment == '/' && c == '\n', comment == '*' && bytes.HasPrefix(out[i:], []byte("*/")):
			comment = 0
		case comment != 0 && c == 0:
			out[i] = ' '
		case comment != 0:
		case bytes.HasPrefix(out[i:], []byte("//")), bytes.HasPrefix(out[i:], []byte("/*")):
			comment, i = out[i+1], i+1
		case c == '"' || c == '\'':
			for i++; i < len(out) && out[i] != c && out[i] != '\n'; i++ {
				if out[i] == '\\' {
					i++
				}
			}
		case c == 0:
			return out, i
		}
	}
	return out, -1
}

// callsUndeclared returns the name of an unqualified method call (foo(...),
// not x.foo(...)) that names no method the file declares, when nothing
// else could declare it: a file whose classes extend or implement
// nothing, import no static member, and declare no enum, record,
// interface or anonymous class, sees Object's methods and its own
// only. "" when there is none, or when it cannot be told.
func callsUndeclared(toks []token) string {
	declared := map[string]bool{}
	for _, m := range objectMethods {
		declared[m] = true
	}
	var calls []string
	for i, t := range toks {
		if t.kind != 'i' {
			continue
		}
		switch t.text {
		case "extends", "implements", "enum", "record", "interface", "permits":
			return ""
		case "import":
			if i+1 < len(toks) && toks[i+1].text == "static" {
				return ""
			}
		case "new":
			if anonymousClass(toks, i) {
				return ""
			}
		}
		if isTypeKeyword(t.text) && i+1 < len(toks) && toks[i+1].kind == 'i' {
			declared[toks[i+1].text] = true // a class: its constructors
		}
		if i+1 >= len(toks) || toks[i+1].text != "(" || javaKeywords[t.text] {
			continue
		}
		prev := token{}
		if i > 0 {
			prev = toks[i-1]
		}
		switch {
		case prev.kind == 'i' && !callAfter[prev.text], prev.text == "]":
			declared[t.text] = true // a method (or constructor) declaration
		case prev.text == ">" && (i < 2 || toks[i-2].text != "-"):
			declared[t.text] = true // a generic return type, or a comparison: either way not judged
		case prev.text == "." || prev.text == "@":
		default:
			calls = append(calls, t.text)
		}
	}
	for _, c := range calls {
		if !declared[c] {
			return c
		}
	}
	return ""
}

// anonymousClass reports whether the `new` at toks[i] creates an
// anonymous class: new T(...) {.
func anonymousClass(toks []token, i int) bool {
	depth := 0
	for j := i + 1; j < len(toks); j++ {
		switch toks[j].text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return j+1 < len(toks) && toks[j+1].text == "{"
			}
		case ";":
			return false
		}
	}
	return false
}

// objectMethods are the methods every class inherits.
var objectMethods = []string{"getClass", "hashCode", "equals", "toString", "clone", "finalize", "notify", "notifyAll", "wait"}

// callAfter are the words after which a name and "(" is a call, not a
// declaration.
var callAfter = map[string]bool{"return": true, "throw": true, "else": true, "case": true, "yield": true,
	"assert": true, "do": true}

// javaKeywords are the words a "(" may follow that are no method.
var javaKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`if for while switch catch synchronized try return throw new this super
		assert case default do else yield instanceof var void boolean byte char short int long float double
		class true false null`) {
		javaKeywords[k] = true
	}
}

var _ lang.BuildChecker = Grapher{}
