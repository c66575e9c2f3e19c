package python

import (
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/langtest"
)

// TestMetaclassFacts checks what the evaluator makes of a metaclass's
// __init__: the names it adds where its source fixes them, nothing (so
// the dynamic record stays) where a name or the control flow depends on
// what it does not follow.
func TestMetaclassFacts(t *testing.T) {
	const made = "\nbases = unittest.TestCase,\nMade = M('Made', bases, {})\n"
	for _, tc := range []struct{ name, src, want string }{
		{"loops over local functions", `import unittest
class M(type):
    def __init__(cls, name, bases, ns):
        if name == 'Made':
            return
        def one(): pass
        def two(): pass
        for f in [one, two]:
            for g in (one,):
                setattr(cls, 'test_%s_%s' % (f.__name__, g.__name__), lambda self: None)
`, "test_one_one,test_two_one skip Made"},
		{"a helper class's methods", `import unittest
class M(type):
    def __init__(cls, name, bases, ns):
        class Add(object):
            def __init__(self, target, suffix):
                self.suffix = suffix
                for m in [self.test_a, self.test_b]:
                    setattr(target, '_'.join((m.__name__, self.suffix)), m)
            def test_a(self): pass
            def test_b(self): pass
        for suffix, _ in [('x', 1), ('y', 2)]:
            Add(cls, suffix)
`, "test_a_x,test_b_x,test_a_y,test_b_y"},
		{"a return inside a loop ends it midway", `import unittest
class M(type):
    def __init__(cls, name, bases, ns):
        for s in ['a', 'b']:
            setattr(cls, 'test_' + s, None)
            return
`, ""},
		{"a name from the class", `import unittest
class M(type):
    def __init__(cls, name, bases, ns):
        setattr(cls, 'test_' + cls.__name__, None)
`, ""},
		{"an add under a condition", `import unittest
class M(type):
    def __init__(cls, name, bases, ns):
        if ns:
            setattr(cls, 'test_a', None)
`, ""},
		{"__new__ may do anything", `import unittest
class M(type):
    def __new__(mcls, name, bases, ns):
        return super().__new__(mcls, name, bases, ns)
    def __init__(cls, name, bases, ns):
        setattr(cls, 'test_a', None)
`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := langtest.Extract(Extractor{Unittest: true}, "test_x.py", tc.src+made)
			got := ""
			for _, c := range decodeFacts(r.Facts).Classes {
				if c.Name == "Made" && c.Meta != nil {
					got = strings.Join(c.Meta.Adds, ",")
					if len(c.Meta.Skip) > 0 {
						got += " skip " + strings.Join(c.Meta.Skip, ",")
					}
				}
			}
			if got != tc.want {
				t.Errorf("adds %q, want %q", got, tc.want)
			}
		})
	}
}
