package ignore

import "strings"

// result is the outcome of matching a pattern against a text. The two abort
// values let an enclosing '*' stop trying longer prefixes early, exactly as
// git's wildmatch does; to a caller they mean "no match".
type result uint8

const (
	matched result = iota
	noMatch
	abortAll        // no shift of any enclosing star can help
	abortToStarStar // only an enclosing '**' can help
)

// wildmatch reports whether pattern p matches text t with git's wildmatch
// semantics. With pathname set (WM_PATHNAME), '*', '?' and classes do not
// match '/', and "**" between slashes matches any number of folders.
func wildmatch(p, t string, pathname bool) bool {
	return dowild(p, t, pathname) == matched
}

// isGlobSpecial reports whether c starts a wildcard or an escape.
func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

// dowild matches p against t; see wildmatch.
func dowild(p, t string, pathname bool) result {
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pc := p[pi]
		if ti >= len(t) && pc != '*' {
			return abortAll
		}
		switch pc {
		case '\\':
			pi++
			if pi >= len(p) || t[ti] != p[pi] {
				return noMatch
			}
		case '?':
			if pathname && t[ti] == '/' {
				return noMatch
			}
		case '*':
			np, nt, r, done := star(p, t, pi, ti, pathname)
			if done {
				return r
			}
			pi, ti = np, nt // both at a '/' the loop steps over
		case '[':
			np, r := class(p, pi, t[ti], pathname)
			if r != matched {
				return r
			}
			pi = np
		default:
			if t[ti] != pc {
				return noMatch
			}
		}
	}
	if ti < len(t) {
		return noMatch
	}
	return matched
}

// star matches the run of '*' at p[pi] and the rest of the pattern. When
// done is false the star was a single '*' followed by '/', and matching
// continues with pi and ti both at a '/'.
func star(p, t string, pi, ti int, pathname bool) (int, int, result, bool) {
	matchSlash := !pathname
	pi++
	if pi < len(p) && p[pi] == '*' {
		before := pi - 2
		for pi < len(p) && p[pi] == '*' {
			pi++
		}
		switch {
		case !pathname:
			matchSlash = true
		case (before < 0 || p[before] == '/') &&
			(pi == len(p) || p[pi] == '/' || (p[pi] == '\\' && pi+1 < len(p) && p[pi+1] == '/')):
			// "**/" may match no folder at all.
			if pi < len(p) && p[pi] == '/' && dowild(p[pi+1:], t[ti:], pathname) == matched {
				return 0, 0, matched, true
			}
			matchSlash = true
		default:
			matchSlash = false
		}
	}
	if pi == len(p) {
		if !matchSlash && strings.IndexByte(t[ti:], '/') >= 0 {
			return 0, 0, noMatch, true
		}
		return 0, 0, matched, true
	}
	if !matchSlash && p[pi] == '/' {
		slash := strings.IndexByte(t[ti:], '/')
		if slash < 0 {
			return 0, 0, noMatch, true
		}
		return pi, ti + slash, matched, false
	}
	return 0, 0, starLoop(p[pi:], t, ti, matchSlash, pathname), true
}

// starLoop tries the rest of the pattern rest at every position of t from ti
// on that the star may extend to.
func starLoop(rest, t string, ti int, matchSlash, pathname bool) result {
	for ti < len(t) {
		if c := rest[0]; !isGlobSpecial(c) {
			// The star must stretch up to the next occurrence of a literal.
			for ti < len(t) && (matchSlash || t[ti] != '/') && t[ti] != c {
				ti++
			}
			if ti >= len(t) || t[ti] != c {
				return noMatch
			}
		}
		r := dowild(rest, t[ti:], pathname)
		if r != noMatch {
			if !matchSlash || r != abortToStarStar {
				return r
			}
		} else if !matchSlash && t[ti] == '/' {
			return abortToStarStar
		}
		ti++
	}
	return abortAll
}

// class matches the bracket expression starting at p[pi] ('[') against c. It
// returns the index of the closing ']' and matched, noMatch, or abortAll for
// a malformed expression (which can then never match anything).
func class(p string, pi int, c byte, pathname bool) (int, result) {
	pi++
	if pi >= len(p) {
		return pi, abortAll
	}
	negated := p[pi] == '!' || p[pi] == '^'
	if negated {
		pi++
	}
	var prev byte
	hit := false
	for first := true; ; first = false {
		if pi >= len(p) {
			return pi, abortAll
		}
		if !first && p[pi] == ']' {
			break
		}
		np, cur, ok, r := classItem(p, pi, prev, c)
		if r != matched {
			return np, r
		}
		hit = hit || ok
		prev, pi = cur, np+1
	}
	if hit == negated || (pathname && c == '/') {
		return pi, noMatch
	}
	return pi, matched
}

// classItem matches one member of a bracket expression at p[pi]: a
// character, an escape, a range (prev-x) or a [:name:] class. It returns the
// index of the member's last byte, the value the next member sees as the
// start of a range (0 after a range or a named class), and whether c matched.
func classItem(p string, pi int, prev, c byte) (int, byte, bool, result) {
	ch := p[pi]
	switch {
	case ch == '\\':
		pi++
		if pi >= len(p) {
			return pi, 0, false, abortAll
		}
		return pi, p[pi], c == p[pi], matched
	case ch == '-' && prev != 0 && pi+1 < len(p) && p[pi+1] != ']':
		pi++
		hi := p[pi]
		if hi == '\\' {
			pi++
			if pi >= len(p) {
				return pi, 0, false, abortAll
			}
			hi = p[pi]
		}
		return pi, 0, c <= hi && c >= prev, matched
	case ch == '[' && pi+1 < len(p) && p[pi+1] == ':':
		s := pi + 2
		end := strings.IndexByte(p[s:], ']')
		if end < 0 {
			return len(p), 0, false, abortAll
		}
		end += s
		if end-s-1 < 0 || p[end-1] != ':' {
			return pi, '[', c == '[', matched // not a named class: a literal '['
		}
		ok, known := posixClass(p[s:end-1], c)
		if !known {
			return end, 0, false, abortAll
		}
		return end, 0, ok, matched
	}
	return pi, ch, c == ch, matched
}

// posixClass reports whether c belongs to the named POSIX class, with git's
// ASCII-only character types. known is false for an unknown name.
func posixClass(name string, c byte) (ok, known bool) {
	isUpper := 'A' <= c && c <= 'Z'
	isLower := 'a' <= c && c <= 'z'
	isDigit := '0' <= c && c <= '9'
	isSpace := c == ' ' || c == '\t' || c == '\n' || c == '\r'
	isPrint := c >= 0x20 && c <= 0x7e
	isAlnum := isUpper || isLower || isDigit
	switch name {
	case "alnum":
		return isAlnum, true
	case "alpha":
		return isUpper || isLower, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return isDigit, true
	case "graph":
		return isPrint && c != ' ', true
	case "lower":
		return isLower, true
	case "print":
		return isPrint, true
	case "punct":
		return isPrint && c != ' ' && !isAlnum, true
	case "space":
		return isSpace, true
	case "upper":
		return isUpper, true
	case "xdigit":
		return isDigit || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F'), true
	}
	return false, false
}
