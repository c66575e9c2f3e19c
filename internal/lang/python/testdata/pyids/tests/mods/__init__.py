"""A package whose submodule and function the tests use as values."""


def fn():
    pass
