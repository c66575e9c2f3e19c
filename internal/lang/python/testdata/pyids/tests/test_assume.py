"""Imported names as values: a function's ID is its name, a submodule's
its dotted name, which only the project's files tell apart."""
import mods
import pytest
from mods import fn, sub


@pytest.mark.parametrize("x", [sub, fn])
def test_module_value(x):
    pass


@pytest.mark.parametrize("x", [fn, mods.fn])
def test_function_value(x):
    pass


@pytest.mark.parametrize("x", [mods.sub])
def test_module_attr(x):
    pass


@pytest.mark.parametrize("x", [mods.alias])
def test_alias(x):
    pass
