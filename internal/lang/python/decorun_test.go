package python

import (
	"slices"
	"testing"
)

// TestDecoRun checks what a class decorator run over a namespace adds,
// and that anything it does that the runner does not follow (a raise, a
// value not known, a return of something else, an unknown call) gives
// no names at all.
func TestDecoRun(t *testing.T) {
	ns := []nsEntry{
		{Name: "__module__", V: &nsVal{K: "?"}},
		{Name: "a_params", V: &nsVal{K: "d", Keys: []string{"x", "y"}, L: []*nsVal{{K: "?"}, {K: "?"}}}},
		{Name: "b_params", V: &nsVal{K: "l", L: []*nsVal{{K: "i", S: "7"}, {K: "t", L: []*nsVal{{K: "s", S: "p q"}, {K: "b", S: "True"}}}}}},
		{Name: "a_as_one", V: &nsVal{K: "f"}},
		{Name: "b_as_two", V: &nsVal{K: "f"}},
		{Name: "hidden", V: &nsVal{K: "?"}},
	}
	head := "def deco(cls):\n    out = {}\n    for name, attr in cls.__dict__.items():\n        if name.endswith('_params'):\n" +
		"            keys = attr if hasattr(attr, 'keys') else ['_'.join(str(v) for v in (x if hasattr(x, '__iter__') else (x,))).replace(' ', '_') for x in attr]\n" +
		"            for k in keys:\n                out['test_' + name[:-7] + '_' + k] = lambda self: None\n"
	cases := []struct {
		name, tail string
		want       []string
		ok         bool
	}{
		{"sets", "    for k, v in out.items():\n        setattr(cls, k, v)\n    return cls\n",
			[]string{"test_a_x", "test_a_y", "test_b_7", "test_b_p_q_True"}, true},
		{"returns None", "    for k, v in out.items():\n        setattr(cls, k, v)\n", nil, false},
		{"raises", "    if 'test_a_x' in out:\n        raise ValueError('x')\n    return cls\n", nil, false},
		{"reads an unknown value", "    if hasattr(cls.__dict__['hidden'], 'keys'):\n        pass\n    return cls\n", nil, false},
		{"calls something else", "    print(out)\n    return cls\n", nil, false},
		{"sets a non-callable", "    setattr(cls, 'test_z', 1)\n    return cls\n", nil, false},
		{"a branch not taken", "    if len(out) == 0:\n        raise ValueError('x')\n    setattr(cls, 'test_z', out['test_a_x'])\n    return cls\n",
			[]string{"test_z"}, true},
	}
	for _, c := range cases {
		got, ok := decoRun(head+c.tail, ns)
		if ok != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("%s: names %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
