"""Classes a decorator of another module fills from their namespace
(paramutil.parameterize): a dict and a list of tuples and of ints, on a
test class and on a mixin that test classes derive from; and a class
whose table the listing cannot read (a call), left to its dynamic
record."""
import unittest

from paramutil import parameterize


def make():
    return {"made": (1,)}


@parameterize
class Direct(unittest.TestCase):
    """Parameterized directly."""

    value_params = {
        "one": (1,),
        "two": (2,),
    }

    def value_as_check(self, n):
        pass

    pair_params = [("a", "b"), ("c d", 3)]
    count_params = [4, 5]

    def pair_as_join(self, x, y):
        pass

    def count_as_num(self, n):
        pass

    def test_plain(self):
        pass


@parameterize
class Mixin:
    size_params = {"small": (1,), "large": (2,)}

    def size_as_fits(self, n):
        pass


class First(Mixin, unittest.TestCase):
    pass


class Second(Mixin, unittest.TestCase):
    def test_own(self):
        pass


@parameterize
class Unknown(unittest.TestCase):
    made_params = make()

    def made_as_case(self, n):
        pass
