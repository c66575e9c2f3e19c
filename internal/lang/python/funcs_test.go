package python

import (
	"strings"
	"testing"
)

// TestHelperTables checks tables a module's helper functions build: the
// rows their run gives where the source fixes them (each checked against
// pytest 9's --collect-only), one dynamic record (the "{...}" name) where
// it does not.
func TestHelperTables(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"a list built from a flag", `import pytest
def _offsets(limited):
    def _mk(hm, fmt):
        h, m = hm
        return object(), fmt
    out = []
    if not limited:
        hm_h = [(h, 0) for h in (-5, 0, 5)]
        out.extend([_mk(hm, '{:+03d}') for hm in hm_h])
        hm_out = [] + hm_h
        hm_out += [(1, 30)]
    else:
        hm_out = [(-5, -0)]
    fmts = ['{:+03d}:{:02d}', '{:+03d}{:02d}']
    out += [_mk(hm, fmt) for hm in hm_out for fmt in fmts]
    out.append((None, 'Z'))
    return out
FULL = _offsets(False)
SHORT = _offsets(limited=True)
@pytest.mark.parametrize("tzo", FULL)
def test_full(tzo): pass
@pytest.mark.parametrize("tzo, s", SHORT)
def test_short(tzo, s): pass
`, "test_full[tzo0],test_full[tzo1],test_full[tzo2],test_full[tzo3],test_full[tzo4],test_full[tzo5],test_full[tzo6],test_full[tzo7],test_full[tzo8],test_full[tzo9],test_full[tzo10],test_full[tzo11]," +
			"test_short[tzo0-{:+03d}:{:02d}],test_short[tzo1-{:+03d}{:02d}],test_short[None-Z]"},
		{"a generator with continue and break", `import pytest
def cases():
    for i in range(10):
        if i == 1:
            continue
        if i > 3:
            break
        yield i, "pos" if i else "zero"
@pytest.mark.parametrize("a, b", cases())
def test_g(a, b): pass
`, "test_g[0-zero],test_g[2-pos],test_g[3-pos]"},
		{"a name rebound between decorators", `import pytest
DATES = [1, 2]
@pytest.mark.parametrize('d', tuple(DATES))
def test_a(d): pass
DATES += [3]
@pytest.mark.parametrize('d', tuple(DATES))
def test_b(d): pass
DATES = ["x"]
@pytest.mark.parametrize('d', DATES)
def test_c(d): pass
`, "test_a[1],test_a[2],test_b[1],test_b[2],test_b[3],test_c[x]"},
		{"a list extended in place after it is used", `import pytest
DATES = [1, 2]
@pytest.mark.parametrize('d', DATES)
def test_a(d): pass
DATES += [3]
`, "{DATES}"},
		{"a condition not known", `import pytest
import os
def cases():
    out = [1]
    if os.environ.get("X"):
        out.append(2)
    return out
@pytest.mark.parametrize("a", cases())
def test_c(a): pass
`, "{cases()}"},
		{"a call the interpreter does not run", `import pytest
def cases():
    out = []
    print("x")
    return out
@pytest.mark.parametrize("a", cases())
def test_c(a): pass
`, "{cases()}"},
		{"an alias of a list", `import pytest
def cases():
    a = [1]
    b = a
    b.append(2)
    return a
@pytest.mark.parametrize("x", cases())
def test_c(x): pass
`, "{cases()}"},
		{"a list appended then changed", `import pytest
def cases():
    row = [1]
    out = [row]
    row.append(2)
    return out
@pytest.mark.parametrize("x, y", cases())
def test_c(x, y): pass
`, "{cases()}"},
		{"a decorated helper", `import pytest
import functools
def deco(f): return f
@deco
def cases():
    return [1]
@functools.lru_cache()
def more():
    return [2]
@pytest.mark.parametrize("x", cases())
def test_c(x): pass
@pytest.mark.parametrize("x", more())
def test_d(x): pass
`, "{cases()},test_d[2]"},
		{"a collector decorator over a dict's items", `import pytest
import functools
def as_list(f):
    @functools.wraps(f)
    def inner_func(*args, **kwargs):
        return list(f(*args, **kwargs))
    return inner_func
@functools.cache
def data():
    def _a():
        X = Offset("X")
        return [Tr(1, X), Tr(2, X)]
    def _b():
        return [Tr(3, None)]
    return {"a": _a(), "b": _b()}
@as_list
def cases():
    for key, trs in tuple(data().items()):
        for tr in trs:
            yield (key, tr)
            yield key
@pytest.mark.parametrize("t", cases())
def test_c(t): pass
@pytest.mark.parametrize("k", data().keys())
def test_k(k): pass
`, "test_c[t0],test_c[a0],test_c[t2],test_c[a1],test_c[t4],test_c[b],test_k[a],test_k[b]"},
		{"timedelta products", `import pytest
from datetime import timedelta
ONE_H = timedelta(hours=1)
def cases():
    EST = -5 * ONE_H
    STD = ONE_H
    for s in ["a", "b"]:
        yield s, EST
        yield s, STD
@pytest.mark.parametrize("s, off", cases())
def test_c(s, off): pass
`, "test_c[a-off0],test_c[a-off1],test_c[b-off2],test_c[b-off3]"},
		{"a dict with a repeated key", `import pytest
def data():
    return {"a": 1, "a": 2}
@pytest.mark.parametrize("k", data().values())
def test_k(k): pass
`, "{data().values()}"},
		{"a decorator that is not a collector", `import pytest
import functools
def as_set(f):
    @functools.wraps(f)
    def inner_func(*args, **kwargs):
        return set(f(*args, **kwargs))
    return inner_func
@as_set
def cases():
    yield 1
@pytest.mark.parametrize("x", cases())
def test_c(x): pass
`, "{cases()}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, r := range extract(tc.src).Tests {
				n := r.Name
				if r.Dynamic {
					n = strings.TrimSuffix(r.Name[strings.Index(r.Name, "{"):], "]")
				}
				if strings.Contains(n, "[") || strings.Contains(n, "{") {
					got = append(got, n)
				}
			}
			if s := strings.Join(got, ","); s != tc.want {
				t.Errorf("got  %s\nwant %s", s, tc.want)
			}
		})
	}
}

// TestClassFactoryIDs checks the IDs of classes made by a library's
// factory: their __name__ is the name given (checked against pytest 9).
func TestClassFactoryIDs(t *testing.T) {
	src := `import pytest
import attr
import collections
from dataclasses import make_dataclass
A = attr.make_class("Made", ["x"])
P = collections.namedtuple("Point", "x y")
D = make_dataclass("Data", ["x"])
T = type("Typed", (object,), {})
U = type(A)
@pytest.mark.parametrize("cls", [A, P, D, T])
def test_a(cls): pass
@pytest.mark.parametrize("cls", [U])
def test_b(cls): pass
`
	var got []string
	for _, r := range extract(src).Tests {
		got = append(got, r.Name)
	}
	want := "test_a,test_a[Made],test_a[Point],test_a[Data],test_a[Typed],test_b,test_b[{[U]}]"
	if s := strings.Join(got, ","); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}

// TestNameAndIndexIDs checks attrs' cmp_using (a class named by
// class_name, "Comparable" by default), seq[i] of known sequences and
// __name__ of classes and functions as ids= (attrs' test_cmp; checked
// against pytest 9): a class_name given by position stays dynamic.
func TestNameAndIndexIDs(t *testing.T) {
	src := `import re
import pytest
from attr._cmp import cmp_using
Eq = cmp_using(eq=lambda a, b: a == b, class_name="EqSame")
Plain = cmp_using(eq=lambda a, b: a == b)
Positional = cmp_using(None, None, None, None, None, True, "Pos")
def helper(): pass
data = [(Eq, True), (Plain, False), (helper, True)]
ids = [c[0].__name__ for c in data]
@pytest.mark.parametrize(("cls", "same"), data, ids=ids)
def test_a(cls, same): pass
@pytest.mark.parametrize("c", [data[-1][0], "xyz"[1]])
def test_b(c): pass
@pytest.mark.parametrize("c", [Positional])
def test_c(c): pass
@pytest.mark.parametrize("c", data[0])
def test_d(c): pass
`
	var got []string
	for _, r := range extract(src).Tests {
		got = append(got, r.Name)
	}
	want := "test_a,test_a[EqSame],test_a[Comparable],test_a[helper],test_b,test_b[helper],test_b[y]," +
		"test_c,test_c[{[Positional]}],test_d,test_d[EqSame],test_d[True]"
	if s := strings.Join(got, ","); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}

// TestStrftimeIDs checks strftime of literal dates and datetimes,
// datetime.UTC (an object: argname+index) and chr() (a lone surrogate
// too), checked against pytest 9; a directive the C libraries write
// differently (%b) stays dynamic.
func TestStrftimeIDs(t *testing.T) {
	src := `import datetime as dt
import pytest
@pytest.mark.parametrize("v", [dt.date(2014, 8, 21).strftime("%d-%m-%Y"), dt.datetime(2024, 2, 29, 7, 5, 9).strftime("%y%m%d %H:%M:%S 100%%"), dt.UTC])
def test_a(v): pass
@pytest.mark.parametrize("v", [dt.date(2014, 8, 21).strftime("%b")])
def test_b(v): pass
@pytest.mark.parametrize("v", ["Am" + chr(0xE9) + "rica", chr(0xD800), chr(65)])
def test_c(v): pass
`
	var got []string
	for _, r := range extract(src).Tests {
		got = append(got, r.Name)
	}
	want := "test_a,test_a[21-08-2014],test_a[240229 07:05:09 100%],test_a[v2],test_b,test_b[{[dt.date(2014, 8, 21).strftime(\"%b\")]}]," +
		"test_c,test_c[Am\\xe9rica],test_c[\\ud800],test_c[A]"
	if s := strings.Join(got, ","); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}

// TestDedentIDs checks textwrap.dedent of str literals (pyparsing's and
// click's tables), checked against pytest 9; a str holding whitespace
// other than spaces, tabs and newlines stays dynamic.
func TestDedentIDs(t *testing.T) {
	src := "import textwrap\nimport pytest\n" +
		"@pytest.mark.parametrize(\"s\", [textwrap.dedent(\"\"\"\\\n    a\n      b\n\n    c\n\"\"\"), " +
		"textwrap.dedent(\"  x\\n\\t y\\n\"), textwrap.dedent(\"   \\n  z\\n  \\tw\")])\ndef test_d(s): pass\n" +
		"@pytest.mark.parametrize(\"s\", [textwrap.dedent(\"  a\\n\\f\\n  b\")])\ndef test_e(s): pass\n"
	var got []string
	for _, r := range extract(src).Tests {
		got = append(got, r.Name)
	}
	want := `test_d,test_d[a\n  b\n\nc\n],test_d[  x\n\t y\n],test_d[\nz\n\tw],test_e,test_e[{[textwrap.dedent(" a\n\f\n b")]}]`
	if s := strings.Join(got, ","); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}

// TestPathIDs checks str() of pathlib paths as this (POSIX) host writes
// them (click's test_detect_program_name), checked against pytest 9.
func TestPathIDs(t *testing.T) {
	src := `import pathlib
from pathlib import Path
import pytest
@pytest.mark.parametrize("p", [str(pathlib.Path("/foo//bar/./x.py")), str(Path("./example")), str(Path("")), str(Path("//net/x/")), str(Path("///a")), str(pathlib.PurePosixPath("a/../b"))])
def test_p(p): pass
`
	var got []string
	for _, r := range extract(src).Tests {
		got = append(got, r.Name)
	}
	want := "test_p,test_p[/foo/bar/x.py],test_p[example],test_p[.],test_p[//net/x],test_p[/a],test_p[a/../b]"
	if s := strings.Join(got, ","); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}

// TestRecordConditions checks conditions over the fields and properties
// of the module's record classes (attrs, dataclasses) and timedelta
// values (checked against pytest 9).
func TestRecordConditions(t *testing.T) {
	src := `import pytest
import attr
from dataclasses import dataclass
from datetime import timedelta
ZERO = timedelta(0)
ONE_H = timedelta(hours=1)
@attr.s
class Offset:
    name = attr.ib()
    utcoffset = attr.ib()
    dst = attr.ib(default=ZERO)
@attr.s
class Transition:
    at = attr.ib()
    before = attr.ib()
    after = attr.ib()
    @property
    def fold(self):
        return self.before.utcoffset > self.after.utcoffset
    @property
    def gap(self):
        return self.before.utcoffset < self.after.utcoffset
@dataclass
class Box:
    size: int
    extra: int = 3
def data():
    A = Offset("A", timedelta(seconds=-968))
    B = Offset("B", ZERO)
    C = Offset("C", -ONE_H, dst=ONE_H)
    return [Transition(1, A, B), Transition(2, B, B), Transition(3, B, C), Transition(4, C, A)]
def cases():
    for t in data():
        if not t.fold and not t.gap:
            continue
        yield ("fold" if t.fold else "gap", t)
def boxes():
    for b in [Box(1), Box(5), Box(2, extra=0)]:
        if b.size > 1 and b.extra:
            yield b.size
@pytest.mark.parametrize("kind, t", cases())
def test_t(kind, t): pass
@pytest.mark.parametrize("size", boxes())
def test_b(size): pass
`
	var got []string
	for _, r := range extract(src).Tests {
		got = append(got, r.Name)
	}
	want := "test_t,test_t[gap-t0],test_t[fold-t1],test_t[gap-t2],test_b,test_b[5]"
	if s := strings.Join(got, ","); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}

// TestIteratorTables checks tables built with itertools (product, chain,
// chain.from_iterable, repeat in zip), zip, enumerate, map(list, ...),
// slices, str.format of ints and replace() of dates (the IDs are
// pytest 9's --collect-only).
func TestIteratorTables(t *testing.T) {
	src := `import pytest
import itertools as it
from datetime import time, date
def dates():
    d = [date(1999, 12, 1)]
    d.append(date(1000, 11, 1))
    o = zip(d, it.repeat('%Y-%m'))
    o = it.chain(o, it.product([date(2016, 2, 29)], ('%Y%m%d', '%Y-%m-%d')))
    return list(o)
def times():
    outputs = []
    outputs.append(it.product([time(0), time(8), time(22)], ['%H']))
    outputs = list(map(list, outputs))
    first = list(it.chain.from_iterable(x[0:2] for x in outputs))
    offs = [(None, '{:+03d}:{:02d}'.format(-5, 0)), (None, '{:+03d}{:02d}'.format(5, 30)), (None, 'Z')]
    o = it.product(first, offs)
    o = ((t.replace(tzinfo=tzi), fmt + off) for (t, fmt), (tzi, off) in o)
    outputs.append(o)
    return list(it.chain.from_iterable(outputs))
@pytest.mark.parametrize('d,fmt', dates())
def test_d(d, fmt): pass
@pytest.mark.parametrize('t,fmt', times())
def test_t(t, fmt): pass
@pytest.mark.parametrize('i,s', enumerate(["a", "b"]))
def test_e(i, s): pass
@pytest.mark.parametrize('a,b', it.product([1, 2], repeat=2))
def test_p(a, b): pass
`
	var got []string
	for _, r := range extract(src).Tests {
		if strings.Contains(r.Name, "[") {
			got = append(got, r.Name)
		}
	}
	want := "test_d[d0-%Y-%m],test_d[d1-%Y-%m],test_d[d2-%Y%m%d],test_d[d3-%Y-%m-%d]," +
		"test_t[t0-%H],test_t[t1-%H],test_t[t2-%H],test_t[t3-%H-05:00],test_t[t4-%H+0530],test_t[t5-%HZ],test_t[t6-%H-05:00],test_t[t7-%H+0530],test_t[t8-%HZ]," +
		"test_e[0-a],test_e[1-b],test_p[1-1],test_p[1-2],test_p[2-1],test_p[2-2]"
	if s := strings.Join(got, ","); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}

// TestModuleMutations checks names a module changes in place at its top
// level: append and extend are followed where the name is read, any
// other change leaves the table dynamic (checked against pytest 9).
func TestModuleMutations(t *testing.T) {
	src := `import pytest
CASES = [("a", 1)]
CASES.append(("b", 2))
@pytest.mark.parametrize("k, v", CASES)
def test_a(k, v): pass
MORE = [1]
@pytest.mark.parametrize("x", list(MORE))
def test_b(x): pass
MORE.extend([2, 3])
@pytest.mark.parametrize("x", MORE)
def test_c(x): pass
SORTED = [2, 1]
SORTED.sort()
@pytest.mark.parametrize("x", SORTED)
def test_d(x): pass
D = [1, 2]
D[0] = 5
@pytest.mark.parametrize("x", D)
def test_e(x): pass
`
	var got []string
	for _, r := range extract(src).Tests {
		if strings.Contains(r.Name, "[") {
			got = append(got, r.Name)
		}
	}
	want := "test_a[a-1],test_a[b-2],test_b[1],test_c[1],test_c[2],test_c[3],test_d[{SORTED}],test_e[{D}]"
	if s := strings.Join(got, ","); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}

// TestHelperSideEffects checks helpers that change names outside them:
// a list held elsewhere (a parameter's, a module-level list, another
// helper's result) is not changed on a copy, and a function that changes
// an outer name makes its caller unknown. (A module-level call whose
// side effect changes a module list another table reads is not seen:
// module-level calls are not run.)
func TestHelperSideEffects(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"a module list through a helper", `import pytest
BASE = [1, 2]
def base():
    return BASE
def cases():
    out = base()
    out.append(3)
    return out
@pytest.mark.parametrize("x", cases())
def test_c(x): pass
`},
		{"a parameter's list", `import pytest
def add(out):
    out.append(3)
    return out
L = [1]
@pytest.mark.parametrize("x", add(L))
def test_c(x): pass
`},
		{"a closure filling its caller's list", `import pytest
def cases():
    out = []
    def add(x):
        out.append(x)
    done = add(1)
    return out
@pytest.mark.parametrize("x", cases())
def test_c(x): pass
`},
		{"a module function filling a module list", `import pytest
REG = []
def register(x):
    REG.append(x)
    return x
def cases():
    a = register(1)
    return [2]
@pytest.mark.parametrize("x", cases())
def test_c(x): pass
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range extract(tc.src).Tests {
				if strings.Contains(r.Name, "[") && !r.Dynamic {
					t.Errorf("static row %s: the table depends on a change the interpreter does not follow", r.Name)
				}
			}
		})
	}
}

// TestHelperBudget checks that a helper whose variables double at each
// turn (each read where it is used) ends in a dynamic record, its work
// bounded by maxEvals.
func TestHelperBudget(t *testing.T) {
	body := strings.Repeat("    v = (v, v)\n", 40)
	src := "import pytest\ndef cases():\n    v = 1\n" + body + "    return [v, 2]\n" +
		"@pytest.mark.parametrize('x', cases())\ndef test_a(x): pass\n"
	var got []string
	for _, r := range extract(src).Tests {
		got = append(got, r.Name)
	}
	if s := strings.Join(got, ","); s != "test_a,test_a[{cases()}]" {
		t.Errorf("got %s, want the table dynamic", s)
	}
}
