package js

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path"
	"regexp"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"go.yaml.in/yaml/v3"
)

// readConfig reads a configuration file without running it: JSON and YAML
// are decoded; JavaScript and TypeScript are parsed, and the object given
// to module.exports or export default (directly, through a const, or as
// the first argument of defineConfig and the like) is evaluated as a
// literal. Parts that are not literals come back unknown; callers fall
// back to defaults for them with a warning.
func readConfig(name string, data []byte) (value, error) {
	switch ext := path.Ext(name); {
	case ext == ".json" || ext == ".jsonc" || name == ".mocharc":
		var v any
		if err := json.Unmarshal(stripJSONComments(data), &v); err != nil {
			return value{}, fmt.Errorf("cannot parse %s: %v (fix its syntax)", name, err)
		}
		return fromAny(v), nil
	case ext == ".yml" || ext == ".yaml":
		var v any
		if err := yaml.Unmarshal(data, &v); err != nil {
			return value{}, fmt.Errorf("cannot parse %s: %v (fix its syntax)", name, err)
		}
		return fromAny(v), nil
	}
	tree, err := parse(grammar(name), data)
	if err != nil {
		return value{}, err
	}
	defer tree.Close()
	w := newWalker("", grammar(name), data, tree.RootNode())
	obj := w.exported()
	if obj == nil {
		return value{}, errors.New("no literal module.exports or export default")
	}
	return w.eval(obj, 0), nil
}

// exported finds the expression a config module exports, unwrapping
// defineConfig(...)-style calls and arrow functions returning an object.
func (w *walker) exported() *sitter.Node {
	var out *sitter.Node
	for i := 0; i < int(w.root.NamedChildCount()) && out == nil; i++ {
		n := w.root.NamedChild(i)
		switch n.Type() {
		case "export_statement":
			if v := n.ChildByFieldName("value"); v != nil {
				out = v
			}
		case "expression_statement":
			if a := n.NamedChild(0); a != nil && a.Type() == "assignment_expression" {
				if l := a.ChildByFieldName("left"); l != nil && w.text(l) == "module.exports" {
					out = a.ChildByFieldName("right")
				}
			}
		}
	}
	for depth := 0; out != nil && depth < 8; depth++ {
		switch out.Type() {
		case "identifier":
			out = w.consts[w.text(out)]
		case "call_expression":
			args := out.ChildByFieldName("arguments")
			if args == nil || args.NamedChildCount() == 0 {
				return nil
			}
			out = args.NamedChild(0)
		case "arrow_function":
			out = out.ChildByFieldName("body")
		case "parenthesized_expression", "as_expression", "satisfies_expression":
			out = out.NamedChild(0)
		default:
			return out
		}
	}
	return out
}

var jsonComments = regexp.MustCompile(`(?m)("(?:[^"\\]|\\.)*")|//[^\n]*|/\*[\s\S]*?\*/`)

// stripJSONComments removes // and /* */ comments outside strings and
// trailing commas (JSONC).
func stripJSONComments(b []byte) []byte {
	b = jsonComments.ReplaceAllFunc(b, func(m []byte) []byte {
		if m[0] == '"' {
			return m
		}
		return nil
	})
	return regexp.MustCompile(`,(\s*[\]}])`).ReplaceAll(b, []byte("$1"))
}

// fromAny converts decoded JSON or YAML into a value.
func fromAny(v any) value {
	switch x := v.(type) {
	case nil:
		return value{kind: kNull}
	case string:
		return value{kind: kString, str: x}
	case bool:
		return value{kind: kBool, b: x}
	case float64:
		return value{kind: kNumber, num: x}
	case int:
		return value{kind: kNumber, num: float64(x)}
	case []any:
		out := value{kind: kArray}
		for _, e := range x {
			out.arr = append(out.arr, fromAny(e))
		}
		return out
	case map[string]any:
		out := value{kind: kObject}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out.keys, out.vals = append(out.keys, k), append(out.vals, fromAny(x[k]))
		}
		return out
	}
	return value{kind: kNumber, num: math.NaN()}
}

// strings reads a string or a list of strings; ok is false when the value
// is present but not literal.
func (v value) strings() (list []string, ok bool) {
	switch v.kind {
	case kString:
		return []string{v.str}, true
	case kArray:
		for _, e := range v.arr {
			if e.kind != kString {
				return nil, false
			}
			list = append(list, e.str)
		}
		return list, true
	}
	return nil, false
}

// setting reads key from a config object: present says the key is there,
// ok that its value is a literal string or string list.
func setting(obj value, key string) (list []string, present, ok bool) {
	v, present := obj.field(key)
	if !present {
		return nil, false, true
	}
	list, ok = v.strings()
	return list, true, ok
}

// rootDir replaces Jest's <rootDir> token with the project-relative root.
func rootDir(list []string, dir string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strings.ReplaceAll(s, "<rootDir>", dir)
	}
	return out
}
