"""Class-body loops that bind test methods through locals() or vars()
(CPython's test_os and test_compileall): over a list the class binds,
over a literal list of tuples unpacked, over a module's list, with a str
method in the key; and two loops whose names are not known here (one
rebinds its variable, one calls a function), left to dynamic records."""
import unittest

NAMES = ["x", "y"]


class Singles(unittest.TestCase):
    singles = ["fchdir", "dup"]
    # singles.append("close")

    def get_single(f):
        def helper(self):
            pass
        return helper

    for f in singles:
        locals()["test_" + f] = get_single(f)


class Paths(unittest.TestCase):
    for name, ext, switch in [
        ('normal', 'pyc', []),
        ('optimize', 'opt-1.pyc', ['-O']),
    ]:
        def f(self, ext=ext, switch=switch):
            pass
        locals()['test_pep3147_paths_' + name] = f


class FromModule(unittest.TestCase):
    for n in NAMES:
        vars()["test_" + n] = lambda self: None


class Computed(unittest.TestCase):
    for n in NAMES:
        locals()["test_" + n.upper()] = lambda self: None


class Rebinding(unittest.TestCase):
    for n in NAMES:
        n = n + "2"
        locals()["test_" + n] = lambda self: None


class Calling(unittest.TestCase):
    for n in NAMES:
        len(n)
        locals()["test_" + n] = lambda self: None
