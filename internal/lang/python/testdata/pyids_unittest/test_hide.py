"""A subclass drops inherited tests by binding their names to values that
are not callable; binding a function again brings one back."""
import unittest


class Base(unittest.TestCase):
    def test_a(self):
        pass

    def test_b(self):
        pass

    def test_c(self):
        pass

    def test_d(self):
        pass


class Child(Base):
    test_a = None
    test_b = 0
    test_c = ("not", "callable")

    def test_e(self):
        pass

    test_e = "no longer a test"


class Grand(Child):
    def test_a(self):
        pass

    test_b = Base.test_b


class Again(Base):
    test_d = None

    def test_d(self):
        pass


class Chained(Base):
    test_a = test_b = None
