import sys

import pytest
from pytest import mark

pytestmark = [pytest.mark.smoke]


def test_plain():
    pass


async def test_async():
    pass


def helper_not_a_test():
    pass


@pytest.fixture
def test_fixture_not_a_test():
    return 1


@pytest.mark.skip(reason="never")
def test_skipped():
    pass


@pytest.mark.skipif(True, reason="always")
def test_skipif_true():
    pass


@pytest.mark.skipif(sys.platform == "nope", reason="runtime condition")
def test_skipif_runtime():
    pass


@mark.xfail
def test_xfail():
    pass


@pytest.mark.slow
def test_custom_mark():
    pass


@pytest.mark.excluded
def test_excluded_by_m():
    pass


def test_deselected():
    pass


if sys.version_info >= (3, 0):

    def test_conditional():
        pass
