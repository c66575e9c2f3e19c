package python

import (
	"slices"
	"sort"
)

// fixtureScopes is the fixtures visible from a test, nearest scope first:
// its classes' (innermost first, each merged along its MRO), its module's,
// then the conftest.py files' from its folder up. A nil fixtureScopes sees
// no fixture.
type fixtureScopes []map[string]fixtureFact

// defs returns the definitions of a fixture name, nearest first: the
// first is the one pytest uses, the others the ones it overrides.
func (s fixtureScopes) defs(name string) []fixtureFact {
	var out []fixtureFact
	for _, sc := range s {
		if f, ok := sc[name]; ok {
			out = append(out, f)
		}
	}
	return out
}

// autouse returns the autouse fixture names, outermost scope first and
// by name within a scope (pytest's parsefactories walks dir(), sorted);
// unknown is true when some autouse= is not a literal.
func (s fixtureScopes) autouse() (names []string, unknown bool) {
	for i := len(s) - 1; i >= 0; i-- {
		var own []string
		for n, f := range s[i] {
			unknown = unknown || f.AutoUnknown
			if f.Auto {
				own = append(own, n)
			}
		}
		sort.Strings(own)
		names = append(names, own...)
	}
	return names, unknown
}

// scopeRank orders fixture scopes as pytest's Scope does, widest first
// ranking highest.
var scopeRank = map[string]int{"": 0, "class": 1, "module": 2, "package": 3, "session": 4}

// tables returns the parameter tables the fixtures add to a test that
// requests args (after its usefixtures uses), is directly parametrized
// over direct and parametrized by its marks (indirect= included) over
// marked, in the order pytest applies them: FixtureManager's
// getfixtureclosure (autouse, usefixtures and arguments, then each
// fixture's own requests, breadth first, stably sorted by scope, widest
// first) and pytest_generate_tests (the nearest definition's params, or
// those of the definition it overrides while requesting it). ok is false
// when the order or the set cannot be known (a scope= or autouse= that is
// not a literal, with some fixture parametrized).
func (s fixtureScopes) tables(uses, args []string, direct, marked map[string]bool) (out []table, ok bool) {
	if len(s) == 0 {
		return nil, true
	}
	auto, unknown := s.autouse()
	closure := []string{}
	for _, n := range slices.Concat(auto, uses, args) {
		if !slices.Contains(closure, n) {
			closure = append(closure, n)
		}
	}
	scope := map[string]string{}
	for i := 0; i < len(closure); i++ {
		n := closure[i]
		if direct[n] {
			continue
		}
		ds := s.defs(n)
		if len(ds) == 0 {
			continue
		}
		scope[n] = ds[0].Scope
		for _, a := range ds[0].Args {
			if !slices.Contains(closure, a) {
				closure = append(closure, a)
			}
		}
	}
	for _, n := range closure {
		if scope[n] == "?" {
			unknown = true
		}
	}
	sort.SliceStable(closure, func(i, j int) bool { return scopeRank[scope[closure[i]]] > scopeRank[scope[closure[j]]] })
	for _, n := range closure {
		if marked[n] {
			continue
		}
		for _, d := range s.defs(n) {
			if d.Params != nil {
				out = append(out, *d.Params)
				break
			}
			if !slices.Contains(d.Args, n) {
				break
			}
		}
	}
	if unknown && len(out) > 0 {
		return nil, false
	}
	return out, true
}

// classFixtures returns the fixtures a class body provides to its tests:
// those of every known class along its MRO, the most derived definition
// of a name winning (pytest reads them from an instance's dir()). It is
// nil when there are none.
func (c *classes) classFixtures(ci *classInfo) map[string]fixtureFact {
	var out map[string]fixtureFact
	for _, r := range ci.mro {
		for n, f := range r.fact().Fixtures {
			if _, ok := out[n]; ok {
				continue
			}
			if out == nil {
				out = map[string]fixtureFact{}
			}
			out[n] = f
		}
	}
	return out
}

// with returns the scopes with an inner one in front (s itself when inner
// is empty).
func (s fixtureScopes) with(inner map[string]fixtureFact) fixtureScopes {
	if len(inner) == 0 {
		return s
	}
	return append(fixtureScopes{inner}, s...)
}
