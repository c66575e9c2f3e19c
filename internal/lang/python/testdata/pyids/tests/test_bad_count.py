"""pytest refuses the whole module: three rows, two ids."""
import pytest


def test_before():
    pass


@pytest.mark.parametrize("x", [1, 2, 3], ids=["a", "b"])
def test_ids_wrong_count(x):
    pass
