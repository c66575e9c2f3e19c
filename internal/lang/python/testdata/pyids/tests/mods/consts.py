"""Constants the tests import as parameter values: pytest names an enum
member by str(), a number by itself, other objects argname+index."""
import enum


class Sentinel(enum.Enum):
    UNSET = object()
    OTHER = object()

    def __repr__(self):
        return f"{self.__class__.__name__}.{self.name}"


class Shown(enum.Enum):
    A = 1

    def __str__(self):
        return "shown"


UNSET = Sentinel.UNSET
LIMIT = 10
SHOWN = Shown.A
MADE = object()

# Whole tables the tests import (their rows are named here).
SOURCES = ("tzpath", "tzdata")
MIXED = [1, MADE, "x", None]
