package python

import (
	"errors"
	"regexp"
	"strings"
)

// expr is a parsed pytest -m or -k expression (pytest's
// _pytest/mark/expression.py grammar without keyword arguments):
//
//	expr     := and_expr ("or" and_expr)*
//	and_expr := not_expr ("and" not_expr)*
//	not_expr := "not" not_expr | "(" expr ")" | ident
//
// A nil *expr is the empty expression, which matches everything.
type expr struct {
	op    string // "or", "and", "not", "ident"
	ident string
	args  []*expr
}

var identToken = regexp.MustCompile(`^(:?\w|:|\+|-|\.|\[|\]|\\|/)+`)

// parseExpr parses an expression; an empty one gives nil.
func parseExpr(s string) (*expr, error) {
	var toks []string
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '(' || c == ')':
			toks = append(toks, string(c))
			i++
		default:
			m := identToken.FindString(s[i:])
			if m == "" {
				return nil, errors.New("unexpected character " + string(c) + " (keyword arguments are not supported)")
			}
			toks = append(toks, m)
			i += len(m)
		}
	}
	if len(toks) == 0 {
		return nil, nil
	}
	p := &exprParser{toks: toks}
	e, err := p.or()
	if err == nil && p.pos < len(toks) {
		err = errors.New("unexpected " + toks[p.pos])
	}
	return e, err
}

type exprParser struct {
	toks []string
	pos  int
}

func (p *exprParser) accept(t string) bool {
	if p.pos < len(p.toks) && p.toks[p.pos] == t {
		p.pos++
		return true
	}
	return false
}

func (p *exprParser) or() (*expr, error) {
	return p.binary("or", p.and)
}

func (p *exprParser) and() (*expr, error) {
	return p.binary("and", p.not)
}

func (p *exprParser) binary(op string, next func() (*expr, error)) (*expr, error) {
	e, err := next()
	for err == nil && p.accept(op) {
		var r *expr
		r, err = next()
		e = &expr{op: op, args: []*expr{e, r}}
	}
	return e, err
}

func (p *exprParser) not() (*expr, error) {
	if p.pos >= len(p.toks) {
		return nil, errors.New("expression ends too early")
	}
	if p.accept("not") {
		e, err := p.not()
		return &expr{op: "not", args: []*expr{e}}, err
	}
	if p.accept("(") {
		e, err := p.or()
		if err == nil && !p.accept(")") {
			err = errors.New("missing )")
		}
		return e, err
	}
	t := p.toks[p.pos]
	if t == ")" || t == "or" || t == "and" {
		return nil, errors.New("unexpected " + t)
	}
	p.pos++
	return &expr{op: "ident", ident: t}, nil
}

// eval evaluates the expression; match decides each identifier.
func (e *expr) eval(match func(string) bool) bool {
	if e == nil {
		return true
	}
	switch e.op {
	case "or":
		return e.args[0].eval(match) || e.args[1].eval(match)
	case "and":
		return e.args[0].eval(match) && e.args[1].eval(match)
	case "not":
		return !e.args[0].eval(match)
	}
	return match(e.ident)
}

// keywordMatch is pytest's KeywordMatcher: an identifier matches when it
// is a case-insensitive substring of one of the names.
func keywordMatch(names []string) func(string) bool {
	return func(id string) bool {
		id = strings.ToLower(id)
		for _, n := range names {
			if strings.Contains(strings.ToLower(n), id) {
				return true
			}
		}
		return false
	}
}

// markMatch is pytest's MarkMatcher: an identifier matches a mark name
// exactly.
func markMatch(marks []string) func(string) bool {
	return func(id string) bool {
		for _, m := range marks {
			if m == id {
				return true
			}
		}
		return false
	}
}
