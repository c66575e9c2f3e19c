import pytest


@pytest.fixture(params=["c1", "c2"])
def shared(request):
    return request.param


@pytest.fixture(params=[1, 2], ids=["one", "two"])
def numbered(request):
    return request.param


@pytest.fixture
def via_conftest(numbered):
    return numbered
