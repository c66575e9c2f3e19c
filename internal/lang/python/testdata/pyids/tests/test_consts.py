"""Constants imported from the project's modules as values: their IDs are
read in the module that binds them."""
import pytest
from mods import LIMIT
from mods.consts import MADE, SHOWN, UNSET


@pytest.mark.parametrize("x", [UNSET, None, 1])
def test_sentinel(x):
    pass


@pytest.mark.parametrize(("a", "b"), [(UNSET, LIMIT), (LIMIT, UNSET)])
def test_passed_on(a, b):
    pass


@pytest.mark.parametrize("x", [SHOWN])
def test_own_str(x):
    pass


@pytest.mark.parametrize("x", [MADE, 1])
def test_object(x):
    pass


@pytest.mark.parametrize("x", [UNSET, "Sentinel.UNSET"])
def test_collision(x):
    pass
