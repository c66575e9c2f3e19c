package rust

// This file is a small macro_rules! engine: it matches an invocation
// against a macro's rules and transcribes the chosen rule's body. It is
// deliberately partial and says so: every step returns whether its
// answer is certain, and the Linker turns an uncertain expansion into one
// dynamic record rather than guess test names.

// rule is one `(matcher) => { body }` arm.
type rule struct{ matcher, body []tok }

// parseRules reads a macro_rules! definition's text into its rules; nil
// when it is not a well-formed macro_rules! item.
func parseRules(src string) []rule {
	ts := tokenize(src)
	if len(ts) == 0 || ts[len(ts)-1].k != 'g' {
		return nil
	}
	arms := ts[len(ts)-1].sub
	var out []rule
	for i := 0; i+2 < len(arms); {
		if arms[i].k != 'g' || arms[i+1].t != "=>" || arms[i+2].k != 'g' {
			return nil
		}
		out = append(out, rule{matcher: metavars(arms[i].sub, true), body: metavars(arms[i+2].sub, false)})
		i += 3
		if i < len(arms) && arms[i].t == ";" {
			i++
		}
	}
	return out
}

// bind is what a metavariable matched: tokens, or one bind per repetition.
type bind struct {
	toks  []tok
	seq   []binds
	isSeq bool
}

type binds map[string]*bind

// pick chooses the rule an invocation's tokens match, as rustc does: the
// first that matches. sure is false when a rule before the chosen one
// could not be decided, or when none matched.
func pick(rules []rule, in []tok) (body []tok, b binds, sure bool) {
	for i, r := range rules {
		b := binds{}
		m := &matcher{}
		n, ok, certain := m.match(r.matcher, in, b, nil)
		if !certain || ok && n == len(in) && m.maybe && i < len(rules)-1 {
			return nil, nil, false
		}
		if ok && n == len(in) {
			return r.body, b, true
		}
	}
	return nil, nil, false
}

// matcher matches one rule. maybe is set when a trailing fragment took the
// rest of the input without knowing that it parses (a closure `|a, b| ..`
// as an expr): the bindings are right if the rule matches at all, which is
// certain only for the last rule (the crate compiles, so some rule
// matches).
type matcher struct{ maybe bool }

// match matches pattern pat against a prefix of in, filling b; stop is
// the token after pat that ends a trailing expression-like fragment (nil
// for none). It returns how many tokens it consumed, whether it matched,
// and whether that answer is certain.
func (m *matcher) match(pat, in []tok, b binds, stop *tok) (int, bool, bool) {
	j := 0
	for i := 0; i < len(pat); i++ {
		p := pat[i]
		switch p.k {
		case 'v':
			n, ok, sure := m.matchFrag(p, firstOr(pat[i+1:], stop), in[j:])
			if !sure || !ok {
				return j, ok, sure
			}
			b[p.t] = &bind{toks: in[j : j+n]}
			j += n
		case 'r':
			n, ok, sure := m.matchRep(p, firstOr(pat[i+1:], stop), in[j:], b)
			if !sure || !ok {
				return j, ok, sure
			}
			j += n
		case 'g':
			if j >= len(in) || in[j].k != 'g' || in[j].t != p.t {
				return j, false, true
			}
			n, ok, sure := m.match(p.sub, in[j].sub, b, nil)
			if !sure || !ok || n != len(in[j].sub) {
				return j, false, sure
			}
			j++
		default:
			if j >= len(in) || !same(in[j], p) {
				return j, false, true
			}
			j++
		}
	}
	return j, true, true
}

func same(a, b tok) bool { return a.k == b.k && a.t == b.t }

// firstOr is the first token of rest, else stop.
func firstOr(rest []tok, stop *tok) *tok {
	if len(rest) > 0 {
		return &rest[0]
	}
	return stop
}

// matchFrag matches one fragment at the front of in; an expression-like
// fragment runs up to the literal token stop (to the end when nil).
func (m *matcher) matchFrag(p tok, stop *tok, in []tok) (int, bool, bool) {
	if len(in) == 0 {
		return 0, false, true
	}
	switch p.frag {
	case "ident":
		return 1, in[0].k == 'i' && in[0].t != "_" && in[0].t[0] != '\'', true
	case "lifetime":
		return 1, in[0].k == 'i' && in[0].t[0] == '\'', true
	case "tt":
		return 1, true, true
	case "block":
		return 1, in[0].k == 'g' && in[0].t == "{", true
	case "literal":
		if in[0].t == "-" && len(in) > 1 && in[1].k == 'l' {
			return 2, true, true
		}
		return 1, in[0].k == 'l' || in[0].t == "true" || in[0].t == "false", true
	case "expr", "ty", "path", "pat", "pat_param", "stmt", "item", "meta":
	default:
		return 0, false, false // vis, an unknown specifier: not decided
	}
	if stop == nil { // the rest of the input is the fragment, if it can be one
		switch {
		case !hasSeparator(in):
			return len(in), true, true
		case hasAmbiguous(in):
			m.maybe = true
			return len(in), true, true
		}
		return 0, false, true
	}
	if stop.k != 'i' && stop.k != 'p' && stop.k != 'l' {
		return 0, false, false
	}
	for n := 0; n < len(in); n++ {
		if same(in[n], *stop) {
			return n, n > 0, !hasAmbiguous(in[:n])
		}
	}
	return len(in), true, !hasAmbiguous(in)
}

// hasSeparator reports a `,`, `;` or `=>` outside groups, which no
// expression, type or pattern holds outside closure bars or generics.
func hasSeparator(ts []tok) bool {
	for _, t := range ts {
		if t.k == 'p' && (t.t == "," || t.t == ";" || t.t == "=>") {
			return true
		}
	}
	return false
}

// hasAmbiguous reports tokens that may hide a separator inside an
// expression or type (closure bars, generic angle brackets).
func hasAmbiguous(ts []tok) bool {
	for _, t := range ts {
		if t.k == 'p' && (t.t == "|" || t.t == "<" || t.t == "||") {
			return true
		}
	}
	return false
}

// matchRep matches a repetition as many times as its body matches at the
// front of in, with its separator between, and binds each variable of its
// body to the sequence of rows it matched. after is the token after the
// repetition. A row that fails at its first token ends the repetition
// before its separator; one that fails partway is not decided.
func (m *matcher) matchRep(p tok, after *tok, in []tok, b binds) (int, bool, bool) {
	stop := p.sep
	if stop == nil {
		stop = after
	}
	var seq []binds
	j := 0
	for {
		start := j
		if len(seq) > 0 && p.sep != nil {
			if j >= len(in) || !same(in[j], *p.sep) {
				break
			}
			start++
		}
		if start >= len(in) {
			break // a trailing separator is left to what follows ($(,)?)
		}
		row := binds{}
		n, ok, sure := m.match(p.sub, in[start:], row, stop)
		if !sure || !ok && n > 0 {
			return 0, false, false // failed partway: not decided
		}
		if !ok || n == 0 {
			break
		}
		seq = append(seq, row)
		j = start + n
		if p.op == '?' {
			break
		}
	}
	if p.op == '+' && len(seq) == 0 {
		return 0, false, true
	}
	for _, name := range repVars(p.sub) {
		b[name] = &bind{isSeq: true, seq: seq}
	}
	return j, true, true
}

// repVars lists the metavariables bound or used inside a repetition body.
func repVars(ts []tok) []string {
	var out []string
	for _, t := range ts {
		switch t.k {
		case 'v':
			out = append(out, t.t)
		case 'g', 'r':
			out = append(out, repVars(t.sub)...)
		}
	}
	return out
}

// transcribe substitutes a rule body. env holds the bindings, innermost
// repetition row last. ok is false when a metavariable is used at the
// wrong repetition depth or repetitions disagree in length (rustc rejects
// both).
func transcribe(body []tok, env []binds) ([]tok, bool) {
	var out []tok
	for _, t := range body {
		switch t.k {
		case 'v':
			v := lookup(env, t.t)
			if v == nil {
				out = append(out, t) // not a metavariable of this rule: kept
				continue
			}
			if v.isSeq {
				return nil, false
			}
			out = append(out, v.toks...)
		case 'g':
			sub, ok := transcribe(t.sub, env)
			if !ok {
				return nil, false
			}
			t.sub = sub
			out = append(out, t)
		case 'r':
			rep, ok := transcribeRep(t, env)
			if !ok {
				return nil, false
			}
			out = append(out, rep...)
		default:
			out = append(out, t)
		}
	}
	return out, true
}

func transcribeRep(r tok, env []binds) ([]tok, bool) {
	count := -1
	var vars []string
	for _, name := range repVars(r.sub) {
		v := lookup(env, name)
		if v == nil || !v.isSeq {
			continue
		}
		if count >= 0 && count != len(v.seq) {
			return nil, false
		}
		count = len(v.seq)
		vars = append(vars, name)
	}
	if count < 0 {
		return nil, false
	}
	var out []tok
	for k := 0; k < count; k++ {
		if k > 0 && r.sep != nil {
			out = append(out, *r.sep)
		}
		row := binds{}
		for _, name := range vars {
			row[name] = lookup(env, name).seq[k][name]
		}
		sub, ok := transcribe(r.sub, append(env[:len(env):len(env)], row))
		if !ok {
			return nil, false
		}
		out = append(out, sub...)
	}
	return out, true
}

func lookup(env []binds, name string) *bind {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := env[i][name]; ok && v != nil {
			return v
		}
	}
	return nil
}
