"""load_tests builds the suite from some of the module's classes only, as
CPython's test_io does: the C and Python variants run, their shared base
does not."""
import unittest


class IOTest(unittest.TestCase):
    def test_read(self):
        pass


class CIOTest(IOTest):
    pass


class PyIOTest(IOTest):
    def test_py_only(self):
        pass


class MiscTest(unittest.TestCase):
    def test_misc(self):
        pass


def load_tests(loader, tests, pattern):
    tests = (CIOTest, PyIOTest)
    for test in tests:
        test.is_C = test.__name__.startswith("C")
    suite = loader.suiteClass()
    for test in tests:
        suite.addTest(loader.loadTestsFromTestCase(test))
    suite.addTest(loader.loadTestsFromTestCase(MiscTest))
    return suite
