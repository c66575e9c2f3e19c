import unittest


class SharedChecks:
    def test_shared(self):
        pass


class BaseCase(unittest.TestCase):
    def test_from_base_case(self):
        pass
