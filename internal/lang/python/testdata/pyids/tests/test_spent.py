"""Iterators are spent after one pass (spent.go): pytest names each
table by the rows its argvalues still yields when it collects the test."""
import functools
import itertools

import pytest

# Read by two tables: the first takes both rows, the second finds none
# (NOTSET); both stay dynamic.
SHARED = zip([1, 2], ["a", "b"])

# Read once: its rows are known.
SINGLE = zip([1, 2], ["x", "y"])
DOUBLED = (i * 2 for i in range(3))
PRODUCT = itertools.product("ab", [0, 1])


@pytest.mark.parametrize("n, s", SHARED)
def test_shared_first(n, s):
    pass


@pytest.mark.parametrize("n, s", SHARED)
def test_shared_second(n, s):
    pass


@pytest.mark.parametrize("n, s", SINGLE)
def test_single(n, s):
    pass


@pytest.mark.parametrize("d", DOUBLED)
def test_doubled(d):
    pass


@pytest.mark.parametrize("c, b", PRODUCT)
def test_product(c, b):
    pass


@pytest.mark.parametrize("n, s", zip([3, 4], "pq"))
def test_inline(n, s):
    pass


def _pairs_twice():
    pairs_iter = zip([5, 6], "uv")
    return list(pairs_iter) + list(pairs_iter)


def _pairs_once():
    pairs_once = zip([7, 8], "st")
    return list(pairs_once)


@pytest.mark.parametrize("n, s", _pairs_twice())
def test_local_twice(n, s):
    pass


@pytest.mark.parametrize("n, s", _pairs_once())
def test_local_once(n, s):
    pass


def _gen_rows():
    yield 1
    yield 2


@functools.cache
def _cached_gen():
    yield "m"
    yield "n"


@pytest.mark.parametrize("g", _gen_rows())
def test_gen_first(g):
    pass


@pytest.mark.parametrize("g", _gen_rows())
def test_gen_second(g):
    pass


@pytest.mark.parametrize("g", _cached_gen())
def test_cached_first(g):
    pass


@pytest.mark.parametrize("g", _cached_gen())
def test_cached_second(g):
    pass


# A mark bound to a name: each test it decorates collects it.
twice_mark = pytest.mark.parametrize("v", iter([10, 20]))


@twice_mark
def test_mark_first(v):
    pass


@twice_mark
def test_mark_second(v):
    pass


class TestBase:
    # Each class that inherits the method collects the table again.
    @pytest.mark.parametrize("v", map(str, [1, 2]))
    def test_method(self, v):
        pass


class TestDerived(TestBase):
    pass


ROWS = [(i, i) for i in range(2)]


def _listed_rows():
    # A list is read as often as wanted.
    return ROWS


@pytest.mark.parametrize("a, b", _listed_rows())
def test_list_first(a, b):
    pass


@pytest.mark.parametrize("a, b", ROWS)
def test_list_second(a, b):
    pass


@pytest.mark.parametrize("v", iter(["p", "q"]))
def test_aliased(v):
    pass


test_alias_too = test_aliased


@pytest.mark.parametrize("v", [1, 2])
def test_listed(v):
    pass


# A list is read again by the second collection.
test_listed_again = test_listed
