import pytest


@pytest.fixture(params=[0, 1], ids=["zero", "one"])
def local(request):
    return request.param


def test_uses_backend(backend):
    pass


@pytest.mark.parametrize("x", [7])
def test_fixture_then_mark(mode, x, local):
    pass


@pytest.mark.parametrize("backend", ["direct"])
def test_direct_overrides_fixture(backend):
    pass


class TestWithFixture:
    def test_method(self, backend, value):
        pass
