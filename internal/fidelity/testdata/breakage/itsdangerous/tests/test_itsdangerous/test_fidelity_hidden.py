# Added to a copy of itsdangerous by internal/fidelity: tests the static
# listing cannot see (made by a helper) and rows built from data.
import pytest


def _make(expected):
    def test():
        assert 1 + 1 == expected

    return test


test_made_by_a_helper = _make(3)  # fails
test_made_and_passing = _make(2)


def _rows():
    return [(n, 5 if n == 2 else n * n) for n in (1, 2, 3)]


@pytest.mark.parametrize(("n", "square"), _rows())
def test_squares(n, square):  # the row 2-5 fails
    assert n * n == square
