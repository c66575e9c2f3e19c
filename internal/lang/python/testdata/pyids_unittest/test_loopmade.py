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


class Target(unittest.TestCase):
    def test_kept(self):
        pass

    def test_gone(self):
        pass


# Loops that set (or hide) test methods of a module class, as CPython's
# test_ordered_dict and test_logging do.
for word in ("alpha " + "beta").split():
    setattr(Target, "test_" + word, lambda self: None)

for when, n in (("S", 1), ("M", 2)):
    def check(self, n=n):
        pass
    setattr(Target, "test_when_%s" % when, check)

for method in ["test_kept"]:
    setattr(Base, method, getattr(Target, method))

for hide in ["test_gone"]:
    setattr(Target, hide, None)
