import pytest


@pytest.fixture
def value():
    return 1
