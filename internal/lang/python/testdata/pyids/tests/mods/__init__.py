"""A package whose submodule and function the tests use as values."""


def fn():
    pass


# An alias: its __name__ is fn.
alias = fn
