"""strict_parametrization_ids: unique IDs are collected as usual."""
import pytest


@pytest.mark.parametrize("x", [1, 2])
def test_unique(x):
    pass
