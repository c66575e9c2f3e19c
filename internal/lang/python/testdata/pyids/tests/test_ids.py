"""pytest's parametrize IDs from literal data: ids=, pytest.param(id=),
auto IDs of every literal kind, escaping and duplicate suffixes."""
import datetime as dt
import enum
import math
import re
import unittest

import pytest


class Color(enum.Enum):
    RED = 1
    GREEN = "g"


class Plain:
    pass


def helper():
    pass


LONG = "x" * 101


@pytest.mark.parametrize("x", [1, 2, 3], ids=["one", None, "three"])
def test_ids_none_entry(x):
    pass


@pytest.mark.parametrize("x", ["a", "b", "c"], ids=["dup", "dup", "dup1"])
def test_ids_dup(x):
    pass


@pytest.mark.parametrize("x", [1, 2, 3, 4], ids=("\u00e9", "a\nb", "back\\slash", "x::y"))
def test_ids_escaped(x):
    pass


@pytest.mark.parametrize("x", [1, 2, 3, 4], ids=[7, 2.5, True, b"\xff"])
def test_ids_nonstr(x):
    pass


@pytest.mark.parametrize("x", [1, 2], ids=[])
def test_ids_empty_list(x):
    pass


@pytest.mark.parametrize("x", [1, 2], ids=iter(["p", "q"]))
def test_ids_iterator(x):
    pass


@pytest.mark.parametrize("x", [1, "s", None], ids=str)
def test_ids_str_callable(x):
    pass


@pytest.mark.parametrize("x", ["a", "b"], ids=lambda v: "same")
def test_ids_lambda_const(x):
    pass


@pytest.mark.parametrize("x", ["a", "b"], ids=lambda v: v)
def test_ids_lambda_identity(x):
    pass


@pytest.mark.parametrize("x", [1, 2], ids=lambda v: None)
def test_ids_lambda_none(x):
    pass


@pytest.mark.parametrize("x", ["a", "b"], ids=lambda v: "k" + v)
def test_ids_lambda_expr(x):
    pass


@pytest.mark.parametrize("x,y", [("a", 1), ("b", 2)], ids=lambda v: f"<{v}>")
def test_ids_lambda_fstring(x, y):
    pass


def make_id(v):
    return "m" + str(v)


@pytest.mark.parametrize("x", [1, 2], ids=make_id)
def test_ids_function(x):
    pass


@pytest.mark.parametrize(
    "x",
    [
        pytest.param(1, id="\u00e4"),
        pytest.param(2, id="x::y"),
        pytest.param(3, id="[b]"),
        pytest.param(4, id="a\tb"),
        pytest.param(5, id=None),
        pytest.param(6),
    ],
    ids=["i0", "i1", "i2", "i3", "i4", None],
)
def test_param_ids(x):
    pass


@pytest.mark.parametrize(
    "x",
    [
        "\u00e9",
        "\u65e5\u672c",
        "caf\u00e9 cr\u00e8me",
        "\U0001F600",
        "a\tb",
        "a\\b",
        "",
        "x::y",
        "[br]",
        "sp ace",
        "da-sh",
        "\x7f",
        "\r",
        "\udcbf",
        "\ud83d\ude00",
        "\u00e9" * 101,
        "'q'\"",
        b"\xc3\xa9",
        b"a\\b",
        b"\x00\x7f",
        b"",
    ],
)
def test_auto_strings(x):
    pass


@pytest.mark.parametrize(
    "x",
    [1.5, 1e100, 0.1, -0.0, 1e-5, 3.0, 1_000, 0x10, -7, True, False, None, 1j, Color.RED, Color.GREEN, helper, Plain, int, re.compile("a.b")],
)
def test_auto_scalars(x):
    pass


@pytest.mark.parametrize("x", ["é", "é", "a", "a0", 1, 1, "1"])
def test_auto_dups(x):
    pass


@pytest.mark.parametrize("x", [LONG, "y" * 5, [1], {"k": 1}, Plain()])
def test_auto_objects(x):
    pass


@pytest.mark.parametrize("x", [])
def test_empty(x):
    pass


@pytest.mark.parametrize("x", [pytest.param(1, id=pytest.HIDDEN_PARAM), 2])
def test_hidden(x):
    pass


def test_café():
    pass


@pytest.mark.parametrize("x", ["\u00e9"])
def test_über(x):
    pass


class TestBase:
    def test_a(self):
        pass

    def test_b(self):
        pass

    def test_c(self):
        pass


class TestChild(TestBase):
    test_a = None
    test_b = 0

    def test_d(self):
        pass

    test_d = "no longer a test"


class TestGrand(TestChild):
    def test_a(self):
        pass


class Shade(enum.IntEnum):
    DARK = 1


class Alias(enum.Enum):
    A = 1
    B = 1


@pytest.mark.parametrize("x", [Shade.DARK])
def test_int_enum(x):
    # str(IntEnum member) is "1" from Python 3.11, "Shade.DARK" before.
    pass


@pytest.mark.parametrize("x", [Alias.B])
def test_enum_alias(x):
    # Alias.B is Alias.A.
    pass


@pytest.fixture(params=[1, "\u00e9", None], ids=lambda v: f"fx{v}")
def fx(request):
    return request.param


def test_fixture_ids(fx):
    pass


@pytest.mark.parametrize("x", ["a"], ids=repr)
def test_ids_repr(x):
    pass


@pytest.mark.parametrize("x", [b"a"], ids=str)
def test_ids_str_bytes(x):
    pass


@pytest.mark.parametrize("y", ["\u00e9", "e"], ids=["\u00fc", None])
@pytest.mark.parametrize("x", [1, pytest.param("\u00e9", id="\u00e92")])
def test_stacked(x, y):
    pass


@pytest.mark.parametrize("x,y", [(1, 2)], ids=["p-q"])
def test_dash_id(x, y):
    pass


class TestCaseStyle(unittest.TestCase):
    def test_a(self):
        pass

    def test_b(self):
        pass


class TestCaseChild(TestCaseStyle):
    test_a = None


NOW = dt.datetime.now()


@pytest.mark.parametrize(
    "x",
    [math.inf, -math.inf, math.nan, -math.nan, math.pi, math.e, float("nan"), float("-Infinity"), float(" 1.5 "), float(3)],
)
def test_float_constants(x):
    pass


@pytest.mark.parametrize("x", [4.0 / 3.0, 7 // -2, -7 % 3, 7 % -3, 2**70, 10**2, 1 + 2.5, 3 * 0.1, 1 / 3, -(2**3)])
def test_arithmetic(x):
    pass


@pytest.mark.parametrize("x", [dt.timedelta(days=1), NOW - dt.timedelta(seconds=1), dt.date(2020, 1, 1), "Time".lower(), "ab".upper()])
def test_std_objects(x):
    pass


@pytest.mark.parametrize("x", [NameError, IOError, SyntaxError, len, zip])
def test_builtin_names(x):
    pass


SGR_RED = "\x1b[31m"
ONE_HOUR = 3600
ONE_DAY = 24 * ONE_HOUR
ONE_YEAR = 365.25 * ONE_DAY


@pytest.mark.parametrize("x", [f"{SGR_RED}red", f"n={ONE_HOUR}", rf"\d{ONE_HOUR}", SGR_RED + "x", ONE_YEAR + 1 / 1000000])
def test_fstrings_and_names(x):
    pass


@pytest.mark.parametrize("x", [1, 2], ids=lambda v: f"{SGR_RED}-{v}")
def test_fstring_lambda(x):
    pass


PID = "n\u00e4med"


class _Private:
    pass


@pytest.mark.parametrize("x", [pytest.param(1, id=PID), pytest.param(2, id=f"p{ONE_HOUR}"), _Private(), _Private])
def test_param_id_names(x):
    pass


@pytest.mark.parametrize("x,y", [([1, "W"], 1.5), ((None, True), "it's"), ([(1,), [2.5, 'a"b\n']], "")], ids=str)
def test_ids_str_lists(x, y):
    pass


@pytest.mark.parametrize("x", ["a", 'b"c', 1, None], ids=repr)
def test_ids_repr_known(x):
    pass


@pytest.mark.parametrize("x", [[1, "\u00b0"], ["\u00a0\u200b\udcbf"], ["caf\u00e9", "\u65e5"]], ids=str)
def test_ids_str_lists_unicode(x):
    pass


@pytest.mark.parametrize("p", [re.compile(re.escape("a.b (c)*~ #\n")), re.escape("x-y")])
def test_escaped_pattern(p):
    pass
