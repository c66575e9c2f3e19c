import unittest

from . import CacheMixin


class RelTest(unittest.TestCase, CacheMixin):
    def test_own(self):
        pass
