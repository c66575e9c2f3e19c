"""Tests made at run time: each place below gives a dynamic record."""
import doctest
import unittest

import helpers


class Plain(unittest.TestCase):
    def test_static(self):
        pass


# type() with a TestCase base: a module-wide {type()} record.
for n in range(2):
    globals()["Made%d" % n] = type("Made%d" % n, (unittest.TestCase,), {"test_made": lambda self: None})

# setattr on a module class: a {setattr} record under Added.
class Added(unittest.TestCase):
    pass


for n in range(2):
    setattr(Added, "test_added_%d" % n, lambda self: None)


# type() with a base that is not a TestCase: no record.
Other = type("Other", (object,), {})


# A class factory called at module level: a {make()} record.
def make(base):
    class Made(base):
        def test_from_factory(self):
            pass
    return Made


FromFactory = make(unittest.TestCase)


# load_tests adds the doctests of helpers: {load_tests} records for this
# module and for helpers.
def load_tests(loader, tests, pattern):
    tests.addTests(doctest.DocTestSuite(helpers))
    return tests
