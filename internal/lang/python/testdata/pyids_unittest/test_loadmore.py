"""load_tests that also returns the standard tests: every class runs."""
import unittest


class Base(unittest.TestCase):
    def test_base(self):
        pass


class Variant(Base):
    pass


def load_tests(loader, tests, pattern):
    suite = loader.suiteClass()
    suite.addTests(tests)
    suite.addTest(loader.loadTestsFromTestCase(Variant))
    return suite
