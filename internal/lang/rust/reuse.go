package rust

import (
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// rstest_reuse: a #[template] function is no test; rstest_reuse turns it
// into a macro holding its attributes from #[rstest] on. #[apply(NAME)] on
// a function prepends those attributes to the function's own (and merges
// the template's argument attributes into its arguments of the same name),
// so the function becomes an rstest whose cases are the template's, then
// its own.

// template is one #[template] function.
type template struct {
	Name   string `json:"name"`
	Line   int    `json:"line"`
	Export bool   `json:"export,omitempty"`
	// Attrs are its attributes from #[rstest] on, Params its parameter
	// list's text.
	Attrs  []tmplAttr `json:"attrs,omitempty"`
	Params string     `json:"params,omitempty"`
}

type tmplAttr struct {
	Path string `json:"path"`
	Args string `json:"args,omitempty"`
	Line int    `json:"line"`
}

// applied is an #[apply(PATH)] function whose template the file lacks,
// for the Linker to find in the crate.
type applied struct {
	Path   string     `json:"path"`
	Name   string     `json:"name"` // its name within the file (inline modules joined)
	Line   int        `json:"line"`
	Tags   []string   `json:"tags,omitempty"`
	Skip   bool       `json:"skip,omitempty"`
	Attrs  []tmplAttr `json:"attrs,omitempty"` // its own, #[apply] left out
	Params string     `json:"params,omitempty"`
}

func isPath(p, name string) bool { return p == name || p == "rstest_reuse::"+name }

// templateOf records a #[template] function.
func templateOf(name string, line int, attrs []attr, params string) template {
	t := template{Name: name, Line: line, Params: params, Export: hasAttr(attrs, "export") || hasAttr(attrs, "rstest_reuse::export")}
	from := len(attrs)
	for i, a := range attrs {
		if a.path == "rstest" || a.path == "rstest::rstest" {
			from = i
			break
		}
	}
	for _, a := range attrs[from:] {
		t.Attrs = append(t.Attrs, tmplAttr{Path: a.path, Args: a.args, Line: a.line})
	}
	return t
}

// applyOf returns the path of an #[apply(PATH)] attribute, "" when none.
func applyOf(attrs []attr) string {
	for _, a := range attrs {
		if isPath(a.path, "apply") {
			return strings.Join(strings.Fields(strings.TrimSuffix(strings.TrimPrefix(a.args, "("), ")")), "")
		}
	}
	return ""
}

func appliedOf(t lang.Test, path string, attrs []attr, params string) applied {
	a := applied{Path: path, Name: t.Name, Line: t.Line, Tags: t.Tags, Skip: t.Skip, Params: params}
	for _, x := range attrs {
		if !isPath(x.path, "apply") {
			a.Attrs = append(a.Attrs, tmplAttr{Path: x.path, Args: x.args, Line: x.line})
		}
	}
	return a
}

// findTemplate finds the template an #[apply] path names, by its last
// segment; ok is false when none or several differ.
func findTemplate(ts []template, path string) (template, bool) {
	name := path[strings.LastIndex(path, "::")+1:]
	name = strings.TrimPrefix(name, ":")
	var found []template
	for _, t := range ts {
		if t.Name == name {
			found = append(found, t)
		}
	}
	if len(found) == 0 {
		return template{}, false
	}
	for _, t := range found[1:] {
		if !sameCases(t, found[0]) {
			return template{}, false
		}
	}
	return found[0], true
}

func sameCases(a, b template) bool {
	if a.Params != b.Params || len(a.Attrs) != len(b.Attrs) {
		return false
	}
	for i := range a.Attrs {
		if a.Attrs[i].Path != b.Attrs[i].Path || a.Attrs[i].Args != b.Attrs[i].Args {
			return false
		}
	}
	return true
}

// applyTests are the records of an #[apply] function: with its template,
// the rstest suite and cases (the template's cases on the function's
// line, its own on theirs); without, the suite and one dynamic case.
func applyTests(a applied, t template, ok bool) []lang.Test {
	parent := lang.Test{Kind: kindTest, Name: a.Name, Line: a.Line, Tags: a.Tags, Skip: a.Skip}
	if !ok {
		parent.Kind = testdex.KindSuite
		return []lang.Test{parent, {Kind: testdex.KindSubtest, Name: a.Name + "::{rstest}", Parent: a.Name,
			Line: a.Line, Dynamic: true, Tags: a.Tags, Skip: a.Skip}}
	}
	var attrs []attr
	for _, x := range t.Attrs {
		attrs = append(attrs, attr{path: x.Path, args: x.Args, line: a.Line})
	}
	for _, x := range a.Attrs {
		attrs = append(attrs, attr{path: x.Path, args: x.Args, line: x.Line})
	}
	return rstestTests(parent, attrs, t.Params+" "+a.Params)
}

// rcase is one rstest case: its description (after case::) and line.
type rcase struct {
	desc string
	line int
}

// rstestCases lists an rstest's cases, from #[case] attributes and from
// case(...) items of #[rstest(...)] (the older syntax), in order; dynamic
// is true when a value list (name => [...]) multiplies them.
func rstestCases(attrs []attr) (cases []rcase, dynamic bool) {
	for _, a := range attrs {
		switch {
		case isCase(a.path):
			_, desc, _ := strings.Cut(a.path, "::")
			cases = append(cases, rcase{desc: desc, line: a.line})
		case (a.path == "rstest" || strings.HasSuffix(a.path, "::rstest")) && strings.HasPrefix(a.args, "("):
			for _, item := range splitTop(strings.TrimSuffix(a.args[1:], ")"), ",") {
				item = strings.TrimSpace(item)
				switch {
				case strings.HasPrefix(item, "case(") || strings.HasPrefix(item, "case ("):
					cases = append(cases, rcase{line: a.line})
				case strings.HasPrefix(item, "case::"):
					desc := strings.TrimPrefix(item, "case::")
					if i := strings.IndexAny(desc, "( "); i >= 0 {
						desc = desc[:i]
					}
					cases = append(cases, rcase{desc: desc, line: a.line})
				case indexTop(item, "=>") >= 0:
					dynamic = true
				}
			}
		}
	}
	return cases, dynamic
}

// rstestTests are an rstest function's records: a plain test when it has
// fixtures only, else a suite (the module rstest generates) and its cases
// case_1, case_2_description, zero-padded to the width of the count
// (case_01 when there are 10+), or one dynamic case when #[values] or a
// value list make the names depend on more than the text.
func rstestTests(parent lang.Test, attrs []attr, params string) []lang.Test {
	cases, dynamic := rstestCases(attrs)
	dynamic = dynamic || strings.Contains(params, "#[values") || strings.Contains(params, "#[files")
	if len(cases) == 0 && !dynamic {
		return []lang.Test{parent}
	}
	parent.Kind = testdex.KindSuite
	out := []lang.Test{parent}
	if dynamic {
		return append(out, lang.Test{Kind: testdex.KindSubtest, Name: parent.Name + "::{rstest}", Parent: parent.Name,
			Line: parent.Line, Dynamic: true, Tags: parent.Tags, Skip: parent.Skip})
	}
	width := len(strconv.Itoa(len(cases)))
	for i, c := range cases {
		idx := strconv.Itoa(i + 1)
		nm := "case_" + strings.Repeat("0", width-len(idx)) + idx
		if c.desc != "" {
			nm += "_" + c.desc
		}
		out = append(out, lang.Test{Kind: testdex.KindSubtest, Name: parent.Name + "::" + nm, Parent: parent.Name,
			Line: c.line, Tags: parent.Tags, Skip: parent.Skip})
	}
	return out
}
