"""The tests test_copied copies into its own namespace (not a test* module)."""
import unittest

from renamedtester import Base


class Copied(unittest.TestCase):
    def test_copied(self):
        pass


class Derived(Copied):
    def test_derived(self):
        pass


class NotACase:
    def test_not(self):
        pass
