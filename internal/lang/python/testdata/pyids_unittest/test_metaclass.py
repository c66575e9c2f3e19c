"""Metaclasses that add test methods to the classes they make
(test_argparse's shapes), and two whose names the listing cannot know."""
import unittest


class Adder(type):
    """Adds a test per combination of two local functions' names."""

    def __init__(cls, name, bases, bodydict):
        if name == 'AddedCase':
            return
        if not hasattr(cls, 'sig'):
            cls.sig = ()

        def one(x):
            return x

        def two(x):
            return x

        class AddTests(object):
            def __init__(self, tester_cls, how):
                self._how = how
                how_name = self._how.__name__
                for test_func in [self.test_first, self.test_second]:
                    names = test_func.__name__, how_name
                    test_name = '_'.join(names)

                    def wrapper(self, test_func=test_func):
                        test_func(self)
                    try:
                        wrapper.__name__ = test_name
                    except TypeError:
                        pass
                    setattr(tester_cls, test_name, wrapper)

            def test_first(self, tester):
                tester.assertTrue(True)

            def test_second(self, tester):
                tester.assertTrue(True)

        for how in [one, two]:
            AddTests(cls, how)


bases = unittest.TestCase,
AddedCase = Adder('AddedCase', bases, {})


class TestPlain(AddedCase):
    pass


class TestOwn(AddedCase):
    def test_own(self):
        pass


class TestDeeper(TestOwn):
    pass


class Formatter(type):
    """Adds tests named by %-formatting a loop's tuples."""

    def __init__(cls, name, bases, bodydict):
        class AddTests(object):
            def __init__(self, test_class, suffix, stream):
                for test_func in [self.test_format, self.test_print]:
                    test_name = '%s_%s' % (test_func.__name__, suffix)
                    setattr(test_class, test_name, lambda self: None)

            def test_format(self):
                pass

            def test_print(self):
                pass

        for suffix, stream in [('usage', 'stdout'), ('help', 'stdout')]:
            AddTests(cls, suffix, stream)


class TestFormatted(unittest.TestCase, metaclass=Formatter):
    pass


class Named(type):
    """Names its tests after the class: not known statically here."""

    def __init__(cls, name, bases, bodydict):
        setattr(cls, 'test_' + name.lower(), lambda self: None)


class TestNamed(unittest.TestCase, metaclass=Named):
    pass


class Hidden(type):
    """Adds a test under a condition the listing does not evaluate."""

    def __init__(cls, name, bases, bodydict):
        if hasattr(cls, 'extra'):
            setattr(cls, 'test_extra', lambda self: None)
        cls.test_always = lambda self: None


class TestHidden(unittest.TestCase, metaclass=Hidden):
    extra = True
