"""Sequences pytest iterates, as real suites write them (click's
test_termui.py and test_compat.py, attrs' test_cmp.py and
test_functional.py, dateutil's test_isoparser.py)."""
import pickle

import pytest

ESC = "\033"
EMITTED = [f"{ESC}[30m", f"{ESC}[38;5;200m", f"{ESC}[0m"]
FOREIGN = [f"{ESC}[38:2:255:0:0m", f"{ESC}[<0;30;40M", f"{ESC}[0 q"]

REPEAT = object()
CASES = [
    ({"prompt": True}, [], "[y/N]", "", False),
    ({"prompt": True, "default": True}, ["--x"], "", "y", REPEAT),
]
MORE_CASES = [
    ({"prompt": "s"}, [], "", "n", "n"),
]

eq_data = [(1, 1), (2, 2)]
order_data = [(3, 3)]
eq_ids = ["one", "two"]
order_ids = ["three"]
cmp_data = eq_data + order_data
cmp_ids = eq_ids + order_ids

HMS_FMTS = ("%H%M%S", "%H:%M:%S")
DATES = [1, 2]


@pytest.mark.parametrize("seq", EMITTED + FOREIGN)
def test_concat(seq):
    pass


@pytest.mark.parametrize(
    ("opt", "params", "args", "prompt", "input", "expected"),
    # Boolean flag prompt cases.
    [("--flag/--no-flag", *case) for case in CASES]
    # Non-boolean flag prompt cases.
    + [("--flag", *case) for case in MORE_CASES],
)
def test_comprehension_splat(opt, params, args, prompt, input, expected):
    pass


@pytest.mark.parametrize("a, b", cmp_data, ids=cmp_ids)
def test_concat_ids(a, b):
    pass


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
@pytest.mark.parametrize("dt", tuple(DATES))
def test_range_protocol(dt, protocol):
    pass


@pytest.mark.parametrize("fmt", [x + sep + "%f" for x in HMS_FMTS for sep in ".,"])
@pytest.mark.parametrize("precision", list(range(3, 5)))
def test_nested_for(fmt, precision):
    pass


@pytest.mark.parametrize("x, y", [(b, a) for a, b in [(1, "p"), (2, "q")]])
def test_unpack(x, y):
    pass


@pytest.mark.parametrize("v", (s.upper() for s in ["a", "b"]))
def test_generator(v):
    pass


@pytest.mark.parametrize("v", [*EMITTED[:0], *DATES, 3])
def test_splat_slice(v):
    pass


@pytest.mark.parametrize("v", [*DATES, 3])
def test_splat(v):
    pass


@pytest.mark.parametrize("v", [s for s in ["a", "b"] if s != "a"])
def test_filtered(v):
    pass


@pytest.mark.parametrize(
    ("default", "expected"),
    # A comment between the arguments.
    [(frozenset(), ()), (frozenset([1, 2]), (1, 2)), (set(), ())],
)
def test_comment_between(default, expected):
    pass


@pytest.mark.parametrize("x", [1, 2], ids=[f"id{i}" for i in range(2)])
def test_ids_comprehension(x):
    pass


@pytest.mark.parametrize("x", [y for y in DATES for y in [y, y + 10]])
def test_rebound(x):
    pass


def mark_dualiter(parameter, factory):
    def decorator(f):
        return pytest.mark.parametrize(parameter, [lambda: factory(), lambda: iter(factory())])(f)

    return decorator


@mark_dualiter("foo", lambda: range(10))
def test_decorator_parametrizes(foo):
    pass


def mark_values(parameter, values):
    def decorator(f):
        return pytest.mark.parametrize(parameter, values)(f)

    return decorator


@mark_values("baz", [1, "two"])
def test_decorator_values(baz):
    pass


def mark_local(parameter):
    values = [1, 2]

    def decorator(f):
        return pytest.mark.parametrize(parameter, values)(f)

    return decorator


@mark_local("bar")
def test_decorator_local(bar):
    pass


def plain(f):
    return f


@plain
def test_plain_decorator():
    pass


@pytest.mark.parametrize("word", "alpha beta\tgamma\n".split())
def test_split_words(word):
    pass


@pytest.mark.parametrize("part", "a,b,,c".split(","))
def test_split_sep(part):
    pass
