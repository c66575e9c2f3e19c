"""A module-level loop makes classes with type() and globals(), as
CPython's test_shelve does: those of the known range are named, those of
the nested loop over a function's result are left to the dynamic
records."""
import unittest


class Base(unittest.TestCase):
    def test_base(self):
        pass


class Mixin:
    def test_mixin(self):
        pass


def unknown():
    return [1]


for proto in range(3):
    bases = (Mixin, Base)
    name = f'Proto{proto}Test'
    globals()[name] = type(name, bases, {'_proto': proto})
    for extra in unknown():
        name = f'Extra{proto}_{extra}'
        globals()[name] = type(name, bases, {})
