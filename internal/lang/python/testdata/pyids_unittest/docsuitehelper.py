"""Docstrings test_docsuite's load_tests adds (not a test* module).

>>> 1 + 1
2
"""


def double(x):
    """
    >>> double(2)
    4
    """
    return 2 * x


def plain(x):
    """No examples here."""
    return x


TUTORIAL = """
>>> double(3)
6
"""

__test__ = {"tutorial": TUTORIAL}
