"""strict_parametrization_ids: duplicate IDs fail this module's collection."""
import pytest


def test_plain():
    pass


@pytest.mark.parametrize("x", [1, 1])
def test_dup(x):
    pass
