import functools


def helper():
    """Helper.

    >>> helper()
    3
    """
    return 3


def keep(f):
    @functools.wraps(f)
    def wrapper(*a, **k):
        return f(*a, **k)
    return wrapper


try:
    from pkg._speedups import quiet
except ImportError:
    def quiet():
        """No examples: no dynamic record."""
