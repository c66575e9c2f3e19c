import unittest
from unittest import TestCase, skip

from helpers import BaseTests, Mixin


def test_function_is_not_a_unittest():
    pass


class TestTop(TestCase):
    def test_one(self):
        pass

    @skip("not now")
    def test_two(self):
        pass

    def check(self):
        pass

    class Nested(TestCase):
        def test_nested(self):
            pass


class WithMixin(Mixin, unittest.TestCase):
    def test_own(self):
        pass


class Inherited(BaseTests):
    def test_more(self):
        pass


@unittest.skip("whole class")
class SkippedClass(unittest.TestCase):
    def test_x(self):
        pass


class NotACase:
    def test_ignored(self):
        pass
