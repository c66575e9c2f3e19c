package rust

import (
	"strconv"
	"strings"
)

// tri is the value of a cfg predicate whose inputs may be unknown.
type tri int8

const (
	cfgFalse tri = iota - 1
	cfgUnknown
	cfgTrue
)

func triOf(b bool) tri {
	if b {
		return cfgTrue
	}
	return cfgFalse
}

// CfgEnv is what a crate's cfg(...) predicates are evaluated against:
// the enabled features and the host platform, as `cargo test` compiles.
// A nil *CfgEnv knows nothing (every predicate but test and
// debug_assertions is unknown), so every test is kept.
type CfgEnv struct {
	// Features are the enabled features of the package (default ones
	// included, transitively closed).
	Features map[string]bool
	// Host is the platform tests are compiled for; nil means every
	// platform (all_platforms): target predicates are unknown.
	Host *Host
}

// Host is a target platform in rustc's cfg vocabulary: OS "linux",
// "macos", "windows"; Family "unix", "windows" or "wasm"; Arch "x86_64",
// "aarch64"; PointerWidth "64"; Endian "little". An empty field is
// unknown.
type Host struct {
	OS, Family, Arch, PointerWidth, Endian string
}

// Keep reports whether a record gated by tags (its "cfg(...)" strings;
// other tags are ignored) is compiled: false only when some gate is known
// to be false. doc is true for doc tests (rustdoc: test false, doc and
// doctest true).
func (e *CfgEnv) Keep(tags []string, doc bool) bool {
	return e.Eval(tags, doc) != cfgFalse
}

// Eval is the conjunction of the cfg gates among tags.
func (e *CfgEnv) Eval(tags []string, doc bool) tri {
	v := cfgTrue
	for _, tag := range tags {
		rest, ok := strings.CutPrefix(tag, "cfg")
		if !ok || !strings.HasPrefix(rest, "(") {
			continue
		}
		p := &cfgParser{toks: cfgTokens(rest)}
		args := p.list()
		if p.bad || p.i != len(p.toks) || len(args) != 1 {
			v = min(v, cfgUnknown)
			continue
		}
		v = min(v, e.eval(args[0], doc))
	}
	return v
}

// cfgExpr is one parsed predicate: a name (unix), a name = "value" pair
// (feature = "x") or an operator (all, any, not) with its arguments.
type cfgExpr struct {
	name, value string
	hasValue    bool
	args        []cfgExpr
	isOp        bool
}

func (e *CfgEnv) eval(x cfgExpr, doc bool) tri {
	if x.isOp {
		switch x.name {
		case "all":
			v := cfgTrue
			for _, a := range x.args {
				v = min(v, e.eval(a, doc))
			}
			return v
		case "any":
			v := cfgFalse
			for _, a := range x.args {
				v = max(v, e.eval(a, doc))
			}
			return v
		case "not":
			if len(x.args) == 1 {
				return -e.eval(x.args[0], doc)
			}
		}
		return cfgUnknown
	}
	if x.hasValue {
		return e.pair(x.name, x.value)
	}
	switch x.name {
	case "test":
		return triOf(!doc)
	case "doc", "doctest":
		return triOf(doc)
	case "debug_assertions": // cargo test builds the dev/test profile
		return cfgTrue
	case "miri": // only under cargo miri test
		return cfgFalse
	case "unix", "windows":
		if e == nil || e.Host == nil || e.Host.Family == "" {
			return cfgUnknown
		}
		return triOf(e.Host.Family == x.name)
	}
	return cfgUnknown
}

// pair evaluates name = "value".
func (e *CfgEnv) pair(name, value string) tri {
	if e == nil {
		return cfgUnknown
	}
	if name == "feature" {
		if e.Features == nil {
			return cfgUnknown
		}
		return triOf(e.Features[value])
	}
	if e.Host == nil {
		return cfgUnknown
	}
	var have string
	switch name {
	case "target_os":
		have = e.Host.OS
	case "target_family":
		have = e.Host.Family
	case "target_arch":
		have = e.Host.Arch
	case "target_pointer_width":
		have = e.Host.PointerWidth
	case "target_endian":
		have = e.Host.Endian
	}
	if have == "" {
		return cfgUnknown
	}
	return triOf(have == value)
}

// cfgParser reads the predicate list inside cfg( ... ).
type cfgParser struct {
	toks []string
	i    int
	bad  bool
}

// cfgTokens splits s into identifiers, string literals and punctuation.
// Anything else ($x of an unexpanded macro, numbers) is one token of its
// own, which the parser rejects.
func cfgTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(s))
			out = append(out, s[i:j])
			i = j
		case isIdentByte(c):
			j := i
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			out = append(out, s[i:i+1])
			i++
		}
	}
	return out
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func (p *cfgParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *cfgParser) next() string {
	t := p.peek()
	if t == "" {
		p.bad = true
	}
	p.i++
	return t
}

// list reads "( pred, pred, ... )", a trailing comma allowed.
func (p *cfgParser) list() []cfgExpr {
	if p.next() != "(" {
		p.bad = true
		return nil
	}
	var out []cfgExpr
	for !p.bad && p.peek() != ")" {
		out = append(out, p.pred())
		if p.peek() == "," {
			p.i++
		} else if p.peek() != ")" {
			p.bad = true
		}
	}
	p.next()
	return out
}

// pred reads one predicate.
func (p *cfgParser) pred() cfgExpr {
	name := strings.TrimPrefix(p.next(), "r#")
	if name == "" || !isIdentByte(name[0]) || name[0] >= '0' && name[0] <= '9' {
		p.bad = true
		return cfgExpr{}
	}
	switch p.peek() {
	case "(":
		return cfgExpr{name: name, isOp: true, args: p.list()}
	case "=":
		p.i++
		v, err := strconv.Unquote(p.next())
		if err != nil {
			p.bad = true
		}
		return cfgExpr{name: name, value: v, hasValue: true}
	}
	return cfgExpr{name: name}
}
