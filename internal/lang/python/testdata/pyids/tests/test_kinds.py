"""Values read through an imported module of the project (from mods
import kinds): classes and functions by __name__, str constants by
value, an imported table of them."""
import pytest
from mods import kinds
from mods.kinds import ALL_KINDS, MODE, ODD


@pytest.mark.parametrize("k", [kinds.String, kinds.UUID, kinds.helper])
def test_defs(k):
    pass


@pytest.mark.parametrize("k", [kinds.Str])
def test_alias(k):
    pass


@pytest.mark.parametrize("k", ALL_KINDS)
def test_table(k):
    pass


@pytest.mark.parametrize("m", [MODE, kinds.MODE, ODD])
def test_str_consts(m):
    pass


@pytest.mark.parametrize("m", [MODE, "strict"])
def test_str_collision(m):
    pass


@pytest.mark.parametrize(
    "v", [pytest.param(kinds.Str, id="named"), pytest.param(kinds.String(), id="made")]
)
def test_explicit_ids(v):
    pass
