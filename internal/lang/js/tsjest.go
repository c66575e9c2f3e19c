package js

import (
	"encoding/json"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// tsJestSetting is the Jest setting naming the ECMAScript target ts-jest
// compiles the project's TypeScript test files to: a title that prints a
// function (%s, String(fn)) shows the compiled source, not the written
// one.
const tsJestSetting = "ts-jest-target"

// tsJestTarget reads the target of the tsconfig ts-jest compiles .ts test
// files with (the transform's tsconfig option, a path or inline compiler
// options, else rootDir's tsconfig.json, its relative extends followed),
// lower-cased; "" when ts-jest does not transform them, passes its output
// through Babel (babelConfig), or no target is written (the default
// differs between TypeScript versions).
func (pr *project) tsJestTarget(cfg value, root string) string {
	name, opts, found := "", value{}, false
	if tr, ok := cfg.field("transform"); ok {
		if tr.kind != kObject {
			return ""
		}
		for i, k := range tr.keys {
			re, err := regexp.Compile(k)
			if err != nil {
				return ""
			}
			if !re.MatchString("/p/a.test.ts") {
				continue
			}
			v := tr.vals[i]
			if v.kind == kArray && len(v.arr) > 0 {
				v, opts = v.arr[0], value{kind: kObject}
				if len(tr.vals[i].arr) > 1 {
					opts = tr.vals[i].arr[1]
				}
			}
			name, found = v.str, v.kind == kString
			break
		}
	}
	if !found {
		p, _ := cfg.field("preset")
		if p.kind != kString || (p.str != "ts-jest" && !strings.HasPrefix(p.str, "ts-jest/presets/")) {
			return ""
		}
		name = "ts-jest"
		if g, ok := cfg.field("globals"); ok {
			opts, _ = g.field("ts-jest")
		}
	}
	if name != "ts-jest" {
		return ""
	}
	if b, ok := opts.field("babelConfig"); ok && (b.kind != kBool || b.b) {
		return "" // Babel prints the compiled code again
	}
	tc, ok := opts.field("tsconfig")
	switch {
	case !ok:
		return pr.tsTarget(path.Join(root, "tsconfig.json"), 0)
	case tc.kind == kString:
		p := strings.ReplaceAll(tc.str, "<rootDir>", root)
		if !path.IsAbs(p) {
			p = path.Join(root, p)
		}
		return pr.tsTarget(p, 0)
	case tc.kind == kObject:
		if t, ok := tc.field("target"); ok && t.kind == kString {
			return strings.ToLower(t.str)
		}
	}
	return ""
}

// tsTarget reads compilerOptions.target of a tsconfig file (absolute,
// slash-separated) or of the relative file it extends.
func (pr *project) tsTarget(file string, depth int) string {
	rel, err := filepath.Rel(pr.dir, filepath.FromSlash(file))
	if err != nil || depth > 8 {
		return ""
	}
	var doc struct {
		Extends         any `json:"extends"`
		CompilerOptions struct {
			Target string `json:"target"`
		} `json:"compilerOptions"`
	}
	if json.Unmarshal(stripJSONComments(pr.read(rel)), &doc) != nil {
		return ""
	}
	if doc.CompilerOptions.Target != "" {
		return strings.ToLower(doc.CompilerOptions.Target)
	}
	if e, ok := doc.Extends.(string); ok && relative(e) {
		p := path.Join(path.Dir(file), e)
		if !strings.HasSuffix(p, ".json") {
			p += ".json"
		}
		return pr.tsTarget(p, depth+1)
	}
	return ""
}

// esYear is a target's edition year: es6 and es2015 are 2015, esnext is
// beyond all; 0 for es3, es5 and anything unknown.
func esYear(target string) int {
	switch target {
	case "es6":
		return 2015
	case "esnext":
		return 9999
	}
	if y, err := strconv.Atoi(strings.TrimPrefix(target, "es")); err == nil && y >= 2015 {
		return y
	}
	return 0
}

// tsPrinted is how TypeScript prints an empty arrow function, () => {},
// when the target keeps arrows (async ones from ES2017): "() => { }";
// "" for any other function (its compiled text is not worth guessing).
func (w *evaluator) tsPrinted(n *sitter.Node) string {
	if w.tsTarget < 2015 || n.Type() != "arrow_function" {
		return ""
	}
	body, params := n.ChildByFieldName("body"), n.ChildByFieldName("parameters")
	if body == nil || body.Type() != "statement_block" || body.NamedChildCount() != 0 || strings.ContainsAny(w.text(body), "\n\r") ||
		params == nil || params.NamedChildCount() != 0 || n.ChildByFieldName("return_type") != nil || n.ChildByFieldName("type_parameters") != nil {
		return ""
	}
	switch text := w.text(n); {
	case strings.HasPrefix(text, "async"):
		if w.tsTarget < 2017 {
			return ""
		}
		return "async () => { }"
	case strings.HasPrefix(text, "("):
		return "() => { }"
	}
	return ""
}

// isTypeScript reports whether ts-jest's preset transforms the file.
func isTypeScript(rel string) bool {
	return strings.HasSuffix(rel, ".ts") || strings.HasSuffix(rel, ".tsx")
}

// jasmineSetting is the Jest setting saying that jest-jasmine2 runs the
// test files (see jestJasmine).
const jasmineSetting = "jest-jasmine2"

// jestJasmine reports whether Jest runs the project's tests with
// jest-jasmine2, which takes a title of any type and names the test by
// String(title) (it([2010, 6]) is "2010,6"); jest-circus refuses an array
// or an object. The testRunner option decides; without it the installed
// Jest's version does: jasmine2 was the default before Jest 27. false
// when neither is known.
func (pr *project) jestJasmine(cfg value) bool {
	if r, ok := cfg.field("testRunner"); ok {
		if r.kind != kString {
			return false
		}
		return r.str == "jasmine2" || r.str == "jest-jasmine2" || strings.HasSuffix(r.str, "/jest-jasmine2") ||
			strings.HasSuffix(r.str, "/jest-jasmine2/build/index.js")
	}
	var pkg struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(pr.read("node_modules/jest/package.json"), &pkg) != nil {
		return false
	}
	major, _, _ := strings.Cut(pkg.Version, ".")
	n, err := strconv.Atoi(major)
	return err == nil && n > 0 && n < 27
}
