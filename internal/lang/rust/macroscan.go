package rust

import (
	"strconv"
	"strings"

	"github.com/testdex/testdex"
)

// mtest is a test function found in a token stream (a macro expansion,
// a quickcheck! or proptest! block).
type mtest struct {
	name string
	mods []string // the `mod x { ... }` the stream wraps it in
	kind testdex.Kind
	skip bool
	tags []string
	line int // 0-based line of its `fn` within the tokenized text
}

// innerCall is a macro invocation found at item level in a stream.
type innerCall struct {
	name string
	args []tok
	mods []string
	tags []string
}

// scanned is what a stream declares; inexact is set when a test's name
// or kind cannot be read exactly (an unbound metavariable, a paste!
// modifier, a test_case attribute inside a macro).
type scanned struct {
	tests   []mtest
	calls   []innerCall
	inexact bool
}

// items reads item-level tokens: attributes, `mod x { }` wrappers, test
// functions (their bodies are skipped: libtest ignores nested items) and
// macro invocations. quickcheck! makes every fn it wraps a #[test];
// proptest! and paste! are read through.
func (s *scanned) items(ts []tok, mods, tags []string, qc bool) {
	var attrs []attr
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		switch {
		case t.t == "#" && t.k == 'p' && i+1 < len(ts) && ts[i+1].k == 'g' && ts[i+1].t == "[":
			attrs = append(attrs, parseAttrText("#["+renderCompact(ts[i+1].sub)+"]", t.line))
			i++
			continue
		case t.t == "#" && t.k == 'p' && i+2 < len(ts) && ts[i+1].t == "!" && ts[i+2].t == "[":
			i += 2 // an inner attribute (#![proptest_config(...)])
			continue
		case t.k == 'i' && t.t == "mod" && i+2 < len(ts) && ts[i+2].k == 'g' && ts[i+2].t == "{":
			if ts[i+1].k != 'i' {
				s.inexact = true
			} else {
				s.items(ts[i+2].sub, appendClip(mods, ts[i+1].t), cfgTags(tags, attrs), false)
			}
			i += 2
		case t.k == 'i' && t.t == "fn":
			i = s.fn(ts, i, mods, tags, attrs, qc)
		case t.k == 'i' && t.t == "macro_rules":
			i += 3 // a nested definition: not a test
		case t.k == 'i':
			j := i
			for j < len(ts) && (ts[j].k == 'i' || ts[j].t == "::") {
				j++
			}
			if j+1 >= len(ts) || ts[j].t != "!" || ts[j+1].k != 'g' {
				continue // a modifier (pub, async) or a path: keep the attributes
			}
			s.call(joinPath(ts[i:j]), ts[j+1].sub, mods, cfgTags(tags, attrs))
			i = j + 1
		case t.t == ";" || t.k == 'g':
		default:
			continue
		}
		attrs = nil
	}
}

// call reads through the macros whose items are known, and records the
// others for the Linker to resolve.
func (s *scanned) call(name string, args []tok, mods, tags []string) {
	switch name {
	case "quickcheck", "quickcheck::quickcheck":
		s.items(args, mods, tags, true)
	case "proptest", "proptest::proptest", "paste", "paste::paste", "paste::item":
		s.items(args, mods, tags, false)
	default:
		s.calls = append(s.calls, innerCall{name: name, args: args, mods: mods, tags: tags})
	}
}

// fn reads `fn NAME ... { body }` at ts[i] and returns the index of its
// last token. In a quickcheck! block every fn is a test.
func (s *scanned) fn(ts []tok, i int, mods, tags []string, attrs []attr, qc bool) int {
	kind := testAttr(attrs)
	if qc {
		kind = "test"
	}
	end := i + 1
	for end < len(ts) && !(ts[end].k == 'g' && ts[end].t == "{") && ts[end].t != ";" {
		end++
	}
	switch kind {
	case "":
		return end
	case "test", "bench":
	default:
		s.inexact = true // test_case, rstest rows inside a macro: not read
		return end
	}
	name, ok := "", false
	if i+1 < len(ts) {
		name, ok = fnName(ts[i+1])
	}
	if !ok {
		s.inexact = true
		return end
	}
	m := mtest{name: name, mods: mods, kind: kindTest, skip: hasAttr(attrs, "ignore"), line: ts[i].line}
	if kind == "bench" {
		m.kind = testdex.KindBenchmark
	}
	m.tags = cfgTags(tags, attrs)
	for _, a := range attrs {
		switch a.path {
		case "ignore":
			m.tags = append(m.tags, "ignored")
		case "should_panic":
			m.tags = append(m.tags, "should_panic")
		}
	}
	s.tests = append(s.tests, m)
	return end
}

// fnName reads a function's name: an identifier, or paste!'s
// [<a $b c>] whose parts are all identifiers and literals (a case
// modifier such as :lower is not reproduced).
func fnName(t tok) (string, bool) {
	switch {
	case t.k == 'i':
		return strings.TrimPrefix(t.t, "r#"), true
	case t.k != 'g' || t.t != "[" || len(t.sub) < 2 || t.sub[0].t != "<" || t.sub[len(t.sub)-1].t != ">":
		return "", false
	}
	var b strings.Builder
	for _, p := range t.sub[1 : len(t.sub)-1] {
		switch {
		case p.k == 'i':
			b.WriteString(p.t)
		case p.k == 'l' && p.t[0] == '"':
			s, err := strconv.Unquote(p.t)
			if err != nil {
				return "", false
			}
			b.WriteString(s)
		case p.k == 'l' && p.t[0] >= '0' && p.t[0] <= '9':
			b.WriteString(p.t)
		default:
			return "", false
		}
	}
	name := b.String()
	return name, name != "" && isIdentStart(name[0])
}

// cfgTags adds the cfg(...) attributes among attrs to tags, as tags.
func cfgTags(tags []string, attrs []attr) []string {
	out := append([]string{}, tags...)
	for _, a := range attrs {
		if a.path == "cfg" && a.args != "(test)" {
			out = append(out, "cfg"+a.args)
		}
	}
	return out
}

func appendClip(s []string, v string) []string {
	return append(append([]string{}, s...), v)
}

func joinPath(ts []tok) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.t)
	}
	return b.String()
}

// renderCompact prints tokens as rustfmt would inside an attribute:
// cfg(not(miri)), cfg(feature = "x"), cfg(all(a, b)).
func renderCompact(ts []tok) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			prev := ts[i-1]
			word := func(x tok) bool { return x.k == 'i' || x.k == 'l' }
			if word(prev) && word(t) || prev.t == "," || prev.t == "=" || t.t == "=" {
				b.WriteByte(' ')
			}
		}
		switch t.k {
		case 'g':
			b.WriteString(t.t + renderCompact(t.sub) + string(closer[t.t[0]]))
		case 'v':
			b.WriteString("$" + t.t)
		default:
			b.WriteString(t.t)
		}
	}
	return b.String()
}
