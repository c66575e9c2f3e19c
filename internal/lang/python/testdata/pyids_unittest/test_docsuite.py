"""A load_tests hook adds this module's doctests and another's through
DocTestSuite; the module docstring has no examples."""
import doctest
import unittest


def add(a, b):
    """
    >>> add(1, 2)
    3
    """
    return a + b


class Box:
    """
    >>> Box().size()
    0
    """

    def size(self):
        """
        >>> Box().size() + 1
        1
        """
        return 0


def load_tests(loader, tests, pattern):
    import docsuitehelper
    tests.addTests(doctest.DocTestSuite())
    tests.addTests(doctest.DocTestSuite(docsuitehelper))
    return tests
