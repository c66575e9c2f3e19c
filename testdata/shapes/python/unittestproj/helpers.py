import unittest


class Mixin:
    def test_mixin(self):
        pass


class BaseTests(unittest.TestCase):
    def test_base(self):
        pass
