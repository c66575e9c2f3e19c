import pickle
from functools import partial

import pytest

from json import JSONDecoder as Decoder


@pytest.fixture
def shared(shared):
    return shared  # overrides the conftest's, requesting it: still parametrized


@pytest.fixture
def numbered():
    return 0  # overrides the conftest's without requesting it: not parametrized


@pytest.fixture(params=[None, 3.5], scope="module")
def wide(request):
    return request.param


@pytest.fixture(params=[True])
def narrow(request):
    return request.param


def test_override_super(shared):
    pass


def test_override_plain(numbered):
    pass


def test_via_conftest(via_conftest):
    pass


def test_scope_order(narrow, wide):
    pass


@pytest.mark.parametrize("narrow", ["direct"])
def test_direct_wins(narrow, wide):
    pass


class TestBase:
    @pytest.fixture(params=(Decoder, partial(Decoder, strict=False)))
    def factory(self, request):
        return request.param

    @pytest.fixture()
    def made(self, factory):
        return factory()

    @pytest.mark.parametrize("value", [None, "x"])
    def test_made(self, made, value):
        pass

    def test_plain(self):
        pass


class TestOverride(TestBase):
    @pytest.fixture(params=[pickle], ids=["pk"])
    def factory(self, request):
        return request.param


class TestPlainOverride(TestBase):
    @pytest.fixture
    def made(self):
        return None


class TestAuto:
    @pytest.fixture(autouse=True, params=["a", "b"])
    def each(self, request):
        return request.param

    def test_auto(self):
        pass

    class TestNested:
        def test_inner(self, made_here):
            pass

        @pytest.fixture(params=[0])
        def made_here(self, request):
            return request.param


def scope_of(fixture_name, config):
    return "function"


@pytest.fixture(params=[1, 2], scope=scope_of)
def dynamic_scope(request):
    return request.param


def test_dynamic_scope(narrow, dynamic_scope):
    pass


@pytest.fixture
def base(request, narrow):
    return request.param


@pytest.mark.parametrize("base", ["i"], indirect=True)
def test_indirect(base):
    pass


@pytest.mark.parametrize("base", ["d"])
def test_direct_no_closure(base):
    pass
