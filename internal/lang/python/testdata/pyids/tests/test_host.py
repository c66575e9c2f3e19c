# Cut down from click's test_compat.py and CPython's test_asyncio and
# test_kqueue: standard-library objects without a __name__ as parameter
# values, and tests defined under platform conditions. The golden file is Linux's.
import selectors
import sys

import pytest


@pytest.mark.parametrize("stream", [None, sys.stdin, sys.stderr, sys.stdout])
def test_stream(stream):
    pass


@pytest.mark.parametrize("fn", [sys.exit, sys.getsizeof])
def test_sys_function(fn):
    pass


if sys.platform == "win32":

    def test_windows_only():
        pass

else:

    def test_elsewhere():
        pass


if hasattr(selectors, "KqueueSelector"):

    def test_kqueue():
        pass


if hasattr(selectors, "EpollSelector"):

    def test_epoll():
        pass
