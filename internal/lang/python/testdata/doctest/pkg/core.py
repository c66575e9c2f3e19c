"""Core module.

>>> from pkg import core
"""
import functools
from functools import cached_property
from typing import TYPE_CHECKING, overload

import pytest

from pkg.helpers import helper, keep

if TYPE_CHECKING:
    def hidden():
        """>>> hidden()"""


def plain():
    """Plain.

    >>> plain()
    1
    """
    return 1


def no_examples():
    """No examples here."""


def comment_only():
    """Only a comment.

    >>> # nothing
    """


def all_skipped():
    """Skipped.

    >>> 1/0  # doctest: +SKIP
    """


def _private():
    """>>> _private()"""


def strip(f):
    def inner(*a):
        return f(*a)
    return inner


@keep
def wrapped():
    """Wrapped.

    >>> wrapped()
    """


@strip
def stripped():
    """Stripped: the wrapper has no docstring.

    >>> stripped()
    """


@functools.lru_cache(maxsize=None)
def cached():
    """Cached.

    >>> cached()
    """


@pytest.fixture
def fix():
    """Fixture.

    >>> 1
    1
    """


@overload
def over(x: int) -> int: ...
@overload
def over(x: str) -> str: ...
def over(x):
    """Overloaded.

    >>> over(1)
    1
    """
    return x


def outer():
    """Outer, no examples."""
    def nested():
        """>>> nested()"""


if True:
    def in_if():
        """>>> in_if()"""
else:
    def in_else():
        """>>> in_else()"""

try:
    def in_try():
        """>>> in_try()"""
except ImportError:
    pass


class Thing:
    """A thing.

    >>> Thing()  # doctest: +ELLIPSIS
    <...>
    """

    def method(self):
        """>>> Thing().method()"""

    @property
    def prop(self):
        """>>> Thing().prop"""

    @cached_property
    def cprop(self):
        """>>> Thing().cprop"""

    @staticmethod
    def static():
        """>>> Thing.static()"""

    @classmethod
    def klass(cls):
        """>>> Thing.klass()"""

    def _hidden(self):
        """>>> 1
        1
        """

    class Inner:
        """>>> Thing.Inner()  # doctest: +ELLIPSIS
        <...>
        """

        def deep(self):
            """>>> 1"""

    ref = helper


class Empty:
    """No examples."""

    def method(self):
        """>>> Empty().method()"""


__test__ = {
    "literal": """
    >>> 1 + 1
    2
    """,
    "noexamples": "just text",
    "func": plain,
}


class Shadowed:
    """>>> Shadowed"""

    def member(self):
        """>>> 1
        1
        """


try:
    from pkg.helpers import helper as Shadowed
except ImportError:
    pass

try:
    from pkg._speedups import fast
except ImportError:
    def fast():
        """>>> fast()"""


class Rebound:
    def member(self):
        """>>> 1
        1
        """


def Rebound():
    """>>> Rebound()"""
