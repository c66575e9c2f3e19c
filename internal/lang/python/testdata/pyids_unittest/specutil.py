"""Class factories as CPython's importlib tests write them: each call
makes a Frozen_ and a Source_ class from a mixin."""
import types
import unittest


def specialize_class(cls, kind, base=None, **kwargs):
    if base is None:
        base = unittest.TestCase
    elif not isinstance(base, type):
        base = base[kind]
    name = '{}_{}'.format(kind, cls.__name__)
    bases = (cls, base)
    specialized = types.new_class(name, bases)
    specialized.__module__ = cls.__module__
    for attr, values in kwargs.items():
        setattr(specialized, attr, values[kind])
    return specialized


def split_frozen(cls, base=None, **kwargs):
    frozen = specialize_class(cls, 'Frozen', base, **kwargs)
    source = specialize_class(cls, 'Source', base, **kwargs)
    return frozen, source


def test_both(test_class, base=None, **kwargs):
    return split_frozen(test_class, base, **kwargs)

