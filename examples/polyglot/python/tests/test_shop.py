import pytest

from shop import total


@pytest.mark.parametrize("items,want", [
    ([], 0),
    ([(250, 2)], 500),
    pytest.param([(100, 1), (50, 3)], 250, id="two-lines"),
])
def test_total(items, want):
    assert total(items) == want


class TestRejects:
    @pytest.mark.parametrize("qty", [0, -1])
    def test_bad_quantity(self, qty):
        with pytest.raises(ValueError):
            total([(1, qty)])

    @pytest.mark.skip(reason="currencies are not supported yet")
    def test_currency(self):
        pass


@pytest.mark.slow
def test_many_lines():
    assert total([(1, 1)] * 1000) == 1000
