"""A package whose submodule and function the tests use as values."""


def fn():
    pass


# An alias: its __name__ is fn.
alias = fn

from .consts import LIMIT  # noqa: E402  (passed on: tests import it from here)
from .consts import SOURCES  # noqa: E402  (passed on too)
