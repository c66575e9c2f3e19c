"""A function copies every TestCase class of another module into this
one under the same names, as CPython's test_xml_etree_c does; a second
one forgets __qualname__, so unittest names its classes otherwise."""
import unittest


def install_tests():
    # Test classes should have __module__ referring to this module.
    import copytester
    for name, base in vars(copytester).items():
        if isinstance(base, type) and issubclass(base, unittest.TestCase):
            class Temp(base):
                pass
            Temp.__name__ = Temp.__qualname__ = name
            Temp.__module__ = __name__
            assert name not in globals()
            globals()[name] = Temp


install_tests()


def install_unnamed():
    import renamedtester
    for name, base in vars(renamedtester).items():
        if isinstance(base, type) and issubclass(base, unittest.TestCase):
            class Temp(base):
                pass
            Temp.__module__ = __name__
            globals()['Unnamed' + name] = Temp


install_unnamed()


def install_foreign():
    import copyforeign
    for name, base in vars(copyforeign).items():
        if isinstance(base, type) and issubclass(base, unittest.TestCase):
            class Temp(base):
                pass
            Temp.__name__ = Temp.__qualname__ = name
            Temp.__module__ = __name__
            globals()[name] = Temp


install_foreign()
