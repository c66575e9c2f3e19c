"""load_tests loads every TestCase class of two fresh imports of a module,
renamed with a suffix each, as CPython's test_datetime does."""
import unittest

from freshutil import import_fresh_module

TESTS = 'renamedtester'


def load_tests(loader, tests, pattern):
    pure_tests = import_fresh_module(TESTS, blocked=['_speedups'])
    fast_tests = import_fresh_module(TESTS, fresh=['_speedups'])
    test_modules = [pure_tests, fast_tests]
    test_suffixes = ["_Pure", "_Fast"]
    for module, suffix in zip(test_modules, test_suffixes):
        test_classes = []
        for name, cls in module.__dict__.items():
            if not isinstance(cls, type):
                continue
            if issubclass(cls, unittest.TestCase):
                test_classes.append(cls)
        test_classes = sorted(set(test_classes), key=lambda cls: cls.__qualname__)
        for cls in test_classes:
            cls.__name__ += suffix
            cls.__qualname__ += suffix
            tests.addTests(loader.loadTestsFromTestCase(cls))
    return tests
