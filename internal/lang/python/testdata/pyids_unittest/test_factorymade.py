"""A function defines test classes and returns them; the module binds
each call's classes, as CPython's test_abc does (unittest names them
make.<locals>.First, twice). The second function does more than that:
its classes are left to its dynamic record."""
import unittest


def make(flag):
    class First(unittest.TestCase):
        def test_one(self):
            pass

    class Second(unittest.TestCase):
        def test_two(self):
            pass

    return First, Second


FirstA, SecondA = make(1)
FirstB, SecondB = make(2)


def other(flag):
    base = unittest.TestCase

    class Hidden(base):
        def test_h(self):
            pass

    return (Hidden,)


(HiddenA,) = other(1)
