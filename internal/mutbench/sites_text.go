package mutbench

import "strings"

// textSites finds the mutation sites of one Python ("python"),
// JavaScript ("js"), TypeScript ("ts"), Rust ("rust") or Java ("java")
// file, from the
// tokens of lex: comments, strings and regex literals never hold one, and
// neither do TypeScript's type declarations nor a Rust #[cfg(test)] module.
//
// An operator that also has another meaning is mutated only where it is
// binary: < and > with blank space on both sides in JavaScript,
// TypeScript, Rust and Java (formatters space binary operators, never
// generics);
// + and - (and Rust's && and ||) right after an operand.
func textSites(lang, file, src string) []Site {
	toks := lex(lang, src)
	skip := skipped(lang, toks)
	var out []Site
	add := func(t lexTok, to, op string) {
		out = append(out, Site{File: file, Line: t.line, Off: t.off, Old: t.text, New: to, Op: op})
	}
	for i, t := range toks {
		if skip[i] {
			continue
		}
		switch t.kind {
		case tokNumber:
			if to, ok := bumpInt(t.text); ok {
				add(t, to, "const")
			}
		case tokIdent:
			if s, ok := returnSite(lang, file, src, toks, i); ok {
				out = append(out, s)
			}
			if f, ok := flips[t.text]; ok && identFlips(lang, t.text) {
				add(t, f.to, f.op)
			}
		case tokOp:
			f, ok := flips[t.text]
			if ok && opFlips(lang, toks, i) {
				add(t, f.to, f.op)
			}
		}
	}
	return out
}

// identFlips reports whether the word is a boolean or logical operator
// in lang.
func identFlips(lang, word string) bool {
	switch word {
	case "True", "False", "and", "or":
		return lang == "python"
	case "true", "false":
		return lang != "python"
	}
	return false
}

// opFlips reports whether the operator toks[i] is mutated in lang.
func opFlips(lang string, toks []lexTok, i int) bool {
	t := toks[i]
	spaced := t.spaceBefore && t.spaceAfter
	switch t.text {
	case "<", ">":
		return lang == "python" || spaced
	case "+", "-":
		return afterOperand(lang, toks, i) && (lang == "python" || spaced)
	case "&&", "||":
		return lang != "python" && (lang != "rust" || afterOperand(lang, toks, i) && spaced)
	case "===", "!==":
		return lang == "js" || lang == "ts"
	}
	return true
}

// afterOperand reports whether toks[i] follows an operand: a name that is
// not a keyword, a number, a string, or a closing bracket.
func afterOperand(lang string, toks []lexTok, i int) bool {
	if i == 0 {
		return false
	}
	p := toks[i-1]
	switch p.kind {
	case tokNumber, tokString:
		return true
	case tokIdent:
		return !keywordsBeforeExpr[p.text]
	}
	return p.text == ")" || p.text == "]"
}

var keywordsBeforeExpr = map[string]bool{
	"return": true, "yield": true, "await": true, "in": true, "of": true, "typeof": true, "case": true,
	"and": true, "or": true, "not": true, "if": true, "elif": true, "else": true, "while": true, "is": true,
	"lambda": true, "assert": true, "let": true, "mut": true, "const": true, "var": true, "throw": true,
	"new": true, "match": true, "as": true, "void": true, "delete": true, "instanceof": true,
}

// returnSite is the mutation of `return X` at toks[i] into `return None`
// (Python) or `return null` (JavaScript, TypeScript), when X ends on the
// return's own line. Rust and Java have none: a zero of the right type
// needs the types (Rust's values are mostly tail expressions anyway, and
// a Java mutant that does not compile costs a Maven run).
func returnSite(lang, file, src string, toks []lexTok, i int) (Site, bool) {
	zero := map[string]string{"python": "None", "js": "null", "ts": "null"}[lang]
	if toks[i].text != "return" || zero == "" || i+1 >= len(toks) || toks[i+1].line != toks[i].line {
		return Site{}, false
	}
	j, k, depth := i+1, i, 0
	for k = i + 1; k < len(toks) && toks[k].line == toks[i].line; k++ {
		switch toks[k].text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		}
		if depth < 0 || depth == 0 && toks[k].text == ";" && lang != "python" {
			break
		}
	}
	last := toks[k-1]
	if depth > 0 || k == j || !closesExpr(last) {
		return Site{}, false
	}
	end := last.off + len(last.text)
	if k < len(toks) && toks[k].line == toks[i].line && toks[k].text != ";" && toks[k].text != "}" {
		return Site{}, false
	}
	if k < len(toks) && toks[k].line != toks[i].line && toks[k].kind == tokOp && !strings.ContainsAny(toks[k].text, "})]") {
		return Site{}, false // the next line goes on with the expression (.then, +, ?)
	}
	expr := src[toks[j].off:end]
	if expr == zero || expr == "undefined" || strings.Contains(expr, "\n") {
		return Site{}, false
	}
	return Site{File: file, Line: toks[j].line, Off: toks[j].off, Old: expr, New: zero, Op: "return"}, true
}

// closesExpr reports whether an expression can end with t.
func closesExpr(t lexTok) bool {
	return t.kind != tokOp || t.text == ")" || t.text == "]" || t.text == "}"
}

// skipped marks the tokens no mutation may touch: TypeScript's type
// aliases, interfaces, declare statements and imports, and Rust's
// #[cfg(test)] modules.
func skipped(lang string, toks []lexTok) []bool {
	skip := make([]bool, len(toks))
	for i := 0; i < len(toks); {
		end := -1
		switch lang {
		case "ts":
			end = tsTypeEnd(toks, i)
		case "rust":
			end = rustTestModEnd(toks, i)
		}
		if end <= i {
			i++
			continue
		}
		for ; i < end && i < len(toks); i++ {
			skip[i] = true
		}
	}
	return skip
}

// tsTypeEnd is the index past a type-only statement starting at toks[i]
// (type X = ...;, interface X {...}, declare ...; import ...;), or -1.
func tsTypeEnd(toks []lexTok, i int) int {
	if i > 0 && !stmtStart(toks[i-1]) || i+1 >= len(toks) {
		return -1
	}
	switch toks[i].text {
	case "type", "declare", "import":
		if toks[i].text == "type" && toks[i+1].kind != tokIdent {
			return -1
		}
		return stmtEnd(toks, i, ";")
	case "interface":
		return stmtEnd(toks, i, "}")
	}
	return -1
}

// stmtStart reports whether a statement can start after p.
func stmtStart(p lexTok) bool {
	return p.text == ";" || p.text == "}" || p.text == "{" || p.text == "export"
}

// stmtEnd is the index past the token closing the statement at toks[i]:
// the first stop (";" or the "}" of its first block) at bracket depth 0.
func stmtEnd(toks []lexTok, i int, stop string) int {
	depth := 0
	for k := i; k < len(toks); k++ {
		switch toks[k].text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 && stop == "}" && toks[k].text == "}" {
				return k + 1
			}
		case ";":
			if depth == 0 {
				return k + 1
			}
		}
	}
	return len(toks)
}

// rustTestModEnd is the index past `#[cfg(test)] mod NAME { ... }`
// starting at toks[i], or -1.
func rustTestModEnd(toks []lexTok, i int) int {
	want := []string{"#", "[", "cfg", "(", "test", ")", "]", "mod"}
	if i+len(want)+2 > len(toks) {
		return -1
	}
	for k, w := range want {
		if toks[i+k].text != w {
			return -1
		}
	}
	return stmtEnd(toks, i+len(want), "}")
}
