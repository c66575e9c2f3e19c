# Added to a copy of pyasn1 by internal/fidelity: test methods made from a
# data table by a helper, and a TestCase class made by type(), neither of
# which the static listing can see.
import unittest


class RowsTestCase(unittest.TestCase):
    pass


def _make(n, square):
    def test(self):
        self.assertEqual(n * n, square)

    return test


for _n in (1, 2, 3):
    setattr(RowsTestCase, "test_square_%d" % _n, _make(_n, 5 if _n == 2 else _n * _n))  # 2 fails

HelperMade = type(
    "HelperMade",
    (unittest.TestCase,),
    {"test_made_by_type": lambda self: self.fail("fidelity: broken on purpose")},
)
