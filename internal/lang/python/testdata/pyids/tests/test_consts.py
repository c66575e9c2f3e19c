"""Constants imported from the project's modules as values: their IDs are
read in the module that binds them (an instance's is argname+index, IDs
that collide once they are in get pytest's suffixes)."""
import pytest
from mods import LIMIT, SOURCES, consts
from mods.consts import MADE, MIXED, SHOWN, UNSET


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


@pytest.mark.parametrize("x", [consts.LIMIT, consts.MADE, consts.UNSET])
def test_module_attribute(x):
    pass


@pytest.fixture(params=SOURCES)
def source(request):
    return request.param


def test_fixture_table(source):
    pass


@pytest.mark.parametrize("m", MIXED)
def test_whole_table(m):
    pass
