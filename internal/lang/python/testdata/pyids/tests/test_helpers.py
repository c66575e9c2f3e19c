"""Tables built by the module's helper functions (funcs.go, rebound.go,
objects.go, iters.go), named by pytest itself in the golden file."""
import functools
import itertools as it
from dataclasses import dataclass
from datetime import date, time, timedelta

import pytest

ZERO = timedelta(0)
ONE_H = timedelta(hours=1)


def as_list(f):
    @functools.wraps(f)
    def inner_func(*args, **kwargs):
        return list(f(*args, **kwargs))

    return inner_func


def _offsets(limited):
    def _mk(hm, fmt):
        h, m = hm
        return object(), fmt.format(h, m)

    out = []
    if not limited:
        hm_h = [(h, 0) for h in (-5, 0, 5)]
        out.extend([_mk(hm, "{:+03d}") for hm in hm_h])
        hm_out = [] + hm_h
        hm_out += [(11, 30)]
    else:
        hm_out = [(-5, -0)]
    fmts = ["{:+03d}:{:02d}", "{:+03d}{:02d}"]
    out += [_mk(hm, fmt) for hm in hm_out for fmt in fmts]
    out.append((None, "Z"))
    return out


FULL = _offsets(False)
SHORT = _offsets(limited=True)


@pytest.mark.parametrize("tzo", FULL)
def test_full(tzo):
    pass


@pytest.mark.parametrize("tzo, s", SHORT)
def test_short(tzo, s):
    pass


DATES = [date(1996, 1, 1), date(2017, 1, 1)]


@pytest.mark.parametrize("d", tuple(DATES))
def test_year(d):
    pass


DATES += [date(2000, 2, 1)]


@pytest.mark.parametrize("d", tuple(DATES))
def test_month(d):
    pass


@dataclass
class Offset:
    name: str
    utcoffset: timedelta
    dst: timedelta = ZERO


@dataclass
class Transition:
    at: int
    before: Offset
    after: Offset

    @property
    def fold(self):
        return self.before.utcoffset > self.after.utcoffset

    @property
    def gap(self):
        return self.before.utcoffset < self.after.utcoffset


@functools.cache
def zones():
    def _one():
        a = Offset("A", timedelta(seconds=-968))
        b = Offset("B", ZERO)
        return [Transition(1, a, b), Transition(2, b, b)]

    def _two():
        c = Offset("C", -ONE_H, dst=ONE_H)
        return [Transition(3, Offset("B", ZERO), c), Transition(4, c, Offset("D", -5 * ONE_H))]

    return {"one": _one(), "two": _two()}


@as_list
def _anomalies():
    for key, transitions in tuple(zones().items()):
        for tr in transitions:
            if not tr.fold and not tr.gap:
                continue
            yield key, "fold" if tr.fold else "gap", tr


@pytest.mark.parametrize("key, kind, tr", _anomalies())
def test_anomaly(key, kind, tr):
    pass


def _times():
    outputs = []
    outputs.append(it.product([time(0), time(8)], ["%H"]))
    outputs.append(it.product([time(0, 30)], ["%H%M", "%H:%M"]))
    outputs = list(map(list, outputs))
    first = list(it.chain.from_iterable(x[0:1] for x in outputs))
    o = it.product(first, SHORT)
    o = ((t.replace(second=1), fmt + off) for (t, fmt), (_, off) in o)
    outputs.append(o)
    return list(it.chain.from_iterable(outputs))


@pytest.mark.parametrize("t, fmt", _times())
def test_time(t, fmt):
    pass


def _dates():
    o = zip([date(1999, 12, 1), date(2016, 2, 1)], it.repeat("%Y-%m"))
    return list(it.chain(o, enumerate(["a", "b"])))


@pytest.mark.parametrize("d, fmt", _dates())
def test_date(d, fmt):
    pass


def _unknown():
    with open(__file__) as f:
        return [len(f.readline())]


@pytest.mark.parametrize("n", _unknown())
def test_unknown(n):
    pass


X = [1]


class TestClassScope:
    # A class body's names come before the module's in its decorators.
    X = [2]
    TABLE = ["a", "b"]
    TABLE += ["c"]

    @pytest.mark.parametrize("x", X)
    def test_shadowed(self, x):
        pass

    @pytest.mark.parametrize("s", TABLE)
    def test_class_table(self, s):
        pass

    for _name in ["p", "q"]:
        pass

    @pytest.mark.parametrize("n", [_name])
    def test_loop_bound(self, n):
        pass


@pytest.mark.parametrize("x", X)
def test_module_x(x):
    pass
