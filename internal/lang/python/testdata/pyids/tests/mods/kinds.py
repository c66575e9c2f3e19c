"""Classes and functions the tests name through the module
(from mods import kinds; kinds.String): each one's __name__, bound once
here; an alias (Str = String) is not known from its name."""
import functools


class String:
    pass


class UUID:
    pass


def helper():
    pass


Str = String
MODE = "strict"
ODD = "tab\there"

# A whole table of them, with a partial (no __name__) and a constant.
ALL_KINDS = [String, UUID, helper, functools.partial(helper), MODE]
