import pytest


class Fake:
    def __str__(self):
        return "fake"


OBJ = Fake()


# One row's ID holds a str() testdex cannot know: the others are listed,
# a dynamic record stands for that one (its ID is v2-???).
@pytest.mark.parametrize("v, e", [(1, "one"), (None, "None"), (OBJ, str(OBJ))])
def test_some_unknown(v, e):
    pass


# A known ID holding the unknown row's anchor (v1) could be made unique
# against it: the whole table stays dynamic.
@pytest.mark.parametrize("v, e", [("v1", "a"), (OBJ, str(OBJ))])
def test_anchor_in_known(v, e):
    pass


# Duplicates among the known rows: their suffixes could meet the unknown ID.
@pytest.mark.parametrize("v, e", [(1, "a"), (1, "a"), (OBJ, str(OBJ))])
def test_known_duplicates(v, e):
    pass


# Stacked on a known table: the known rows of both, times each other.
@pytest.mark.parametrize("x", [7, 8])
@pytest.mark.parametrize("v, e", [(2, "two"), (OBJ, str(OBJ))])
def test_stacked(x, v, e):
    pass
