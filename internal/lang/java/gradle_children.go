package java

import "strings"

// childRule is a loop over rootProject.children: it applies to the root's
// children included before it. Its templates hold nameMark where the
// child's name goes.
type childRule struct {
	upTo   int      // how many of includes precede the loop
	builds []string // buildFileName templates, in order
	dir    string   // projectDir template, "" when not set
}

// nameMark stands for the child's name in a childRule's templates.
const nameMark = "\x00"

// children reads a loop over rootProject.children (each, forEach or all,
// its parameter named or it) and the layout assignments in it whose
// values are templates of the child's name; it reports whether token i
// starts such a loop. Other statements in the loop are read as usual.
func (r *settingsReader) children(i int) bool {
	if !r.is(i+1, gPunct, ".") || !r.is(i+2, gIdent, "children") || !r.is(i+3, gPunct, ".") || !r.is(i+5, gPunct, "{") {
		return false
	}
	switch r.tok(i + 4).text {
	case "each", "forEach", "all":
	default:
		return false
	}
	body, param := i+6, "it"
	if r.tok(r.skipNewlines(body)).kind == gIdent && r.is(r.skipNewlines(body)+1, gPunct, "-") && r.is(r.skipNewlines(body)+2, gPunct, ">") {
		param = r.tok(r.skipNewlines(body)).text
		body = r.skipNewlines(body) + 3
	}
	rule := childRule{upTo: len(r.s.includes)}
	end := r.blockEnd(i + 5)
	locals := r.loopLocals(body, end, param)
	for k := body; k < end; k++ {
		if r.used[k] || !r.is(k, gIdent, param) || !r.is(k+1, gPunct, ".") || !r.is(k+3, gPunct, "=") || r.is(k+4, gPunct, "=") {
			continue
		}
		conv := func(t gtoken) (string, bool) {
			if v, ok := locals[t.text]; ok && t.kind == gIdent {
				return v, true
			}
			return childTemplate(t, param)
		}
		switch r.tok(k + 2).text {
		case "buildFileName":
			if b, ok := conv(r.tok(k + 4)); ok {
				rule.builds = append(rule.builds, b)
				r.mark(k, k+5)
			}
		case "projectDir":
			if d, e, ok := r.fileValueWith(k+4, conv); ok {
				rule.dir = d
				r.mark(k, e)
			}
		}
	}
	r.mark(i, body)
	r.s.children = append(r.s.children, rule)
	return true
}

// loopLocals reads the loop's local strings that are templates of the
// child's name (val d = "subprojects/${p.name}", def in Groovy), which
// mockito's loop passes to File(settingsDir, d).
func (r *settingsReader) loopLocals(body, end int, param string) map[string]string {
	locals := map[string]string{}
	for k := body; k+3 < end; k++ {
		if (r.is(k, gIdent, "val") || r.is(k, gIdent, "def")) && r.tok(k+1).kind == gIdent && r.is(k+2, gPunct, "=") {
			if v, ok := childTemplate(r.tok(k+3), param); ok && !r.is(k+4, gPunct, "+") && !r.is(k+4, gPunct, ".") {
				locals[r.tok(k+1).text] = v
			}
		}
	}
	return locals
}

// blockEnd returns the index of the } closing the { at open.
func (r *settingsReader) blockEnd(open int) int {
	depth := 0
	for k := open; k < len(r.toks); k++ {
		switch {
		case r.is(k, gPunct, "{"):
			depth++
		case r.is(k, gPunct, "}"):
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return len(r.toks)
}

// childTemplate turns a string of a children loop into a template: the
// child's name (${p.name}, or Groovy's $p.name) becomes nameMark; any
// other template part but a leading $rootDir/ makes it unreadable.
func childTemplate(t gtoken, param string) (string, bool) {
	if t.kind != gString {
		return "", false
	}
	text := strings.ReplaceAll(t.text, "${"+param+".name}", nameMark)
	text = strings.ReplaceAll(text, "$"+param+".name", nameMark)
	return literalPath(gtoken{kind: gString, text: text, literal: !strings.Contains(text, "$")})
}
