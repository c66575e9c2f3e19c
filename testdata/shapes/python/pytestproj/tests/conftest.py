import pytest


@pytest.fixture
def value():
    return 1


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request):
    return request.param


@pytest.fixture(name="mode", params=[pytest.param(1, id="fast"), 2])
def _mode(request):
    return request.param
