"""The tests test_renamed loads twice, renamed (not a test* module)."""
import unittest


class Base(unittest.TestCase):
    def test_base(self):
        pass


class Child(Base):
    def test_child(self):
        pass


class Helper:
    def test_not_a_case(self):
        pass


class Outer(unittest.TestCase):
    class Inner(unittest.TestCase):
        def test_inner(self):
            pass

    def test_outer(self):
        pass
