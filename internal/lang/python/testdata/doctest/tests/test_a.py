"""Tests.

>>> 1
1
"""


def test_one():
    """>>> test_one()"""
