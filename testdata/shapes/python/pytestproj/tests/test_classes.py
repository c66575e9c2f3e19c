import unittest
import unittest as ut
from unittest import TestCase as TC

import pytest

from tests.base import SharedChecks, BaseCase


class TestPlain:
    def test_method(self):
        pass

    def helper(self):
        pass

    @staticmethod
    def test_static():
        pass

    class TestNested:
        def test_inner(self):
            pass

    class NotATestName:
        def test_hidden(self):
            pass


class TestWithInit:
    def __init__(self):
        pass

    def test_not_collected(self):
        pass


class TestDisabled:
    __test__ = False

    def test_not_collected(self):
        pass


class DescribeGlob:
    def test_glob_class(self):
        pass


@pytest.mark.slow
class TestMarked:
    pytestmark = pytest.mark.smoke

    def test_marked(self):
        pass


class Base:
    def test_base(self):
        pass


class TestChild(Base):
    def test_child(self):
        pass


class TestOverride(TestChild):
    def test_base(self):
        pass


class TestShared(SharedChecks):
    pass


class TestFromOtherFile(BaseCase):
    pass


class Plain(unittest.TestCase):
    def test_b(self):
        pass

    def test_a(self):
        pass

    def helper(self):
        pass


class Aliased(ut.TestCase):
    @unittest.skip("off")
    def test_skipped(self):
        pass


class FromImport(TC):
    def runTest(self):
        pass


class AbstractBase(TC):
    __test__ = False

    def test_template(self):
        pass


class Concrete(AbstractBase):
    __test__ = True
