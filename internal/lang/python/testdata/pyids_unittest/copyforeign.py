"""A module test_copied copies from that imports a class from outside the
project: were it a TestCase, its tests would be copied too."""
import unittest
from collections import OrderedDict  # noqa: F401


class Known(unittest.TestCase):
    def test_known(self):
        pass
