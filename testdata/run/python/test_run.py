import os
import subprocess
import sys
import time

import pytest


def test_pass():
    pass


def test_fail():
    print("some context")
    got = 1
    assert got == 2, "got 1, want 2"


@pytest.mark.parametrize("ok", [True, False], ids=["good", "bad"])
def test_table(ok):
    assert ok, "row failed"


def test_skip():
    pytest.skip("not today")


@pytest.mark.xfail(reason="known bug")
def test_xfail():
    assert False


class TestGroup:
    def test_one(self):
        pass

    @pytest.mark.parametrize("n", [1, 2])
    def test_rows(self, n):
        assert n > 0


def test_hang():
    """Never ends unless TESTDEX_FIXTURE_HANG is unset."""
    if not os.environ.get("TESTDEX_FIXTURE_HANG"):
        pytest.skip("set TESTDEX_FIXTURE_HANG to hang")
    time.sleep(3600)


def test_leak():
    """Starts a child that outlives the test."""
    if not os.environ.get("TESTDEX_FIXTURE_LEAK"):
        pytest.skip("set TESTDEX_FIXTURE_LEAK to leak a process")
    _record_pid(subprocess.Popen(["sleep", "297"]).pid)


def test_loud():
    """Prints two megabytes."""
    if not os.environ.get("TESTDEX_FIXTURE_LOUD"):
        pytest.skip("set TESTDEX_FIXTURE_LOUD to print megabytes")
    line = "x" * 1023 + "\n"
    for _ in range(2048):
        sys.stdout.write(line)


@pytest.mark.parametrize("s", ["a::b", "x[1]"])
def test_odd_ids(s):
    assert s


if sys.version_info < (3, 0):
    def test_py2_only():
        """Listed, never collected."""


def _make(name):
    def test():
        assert False, "made at run time"
    return test


for _name in ["made"]:
    globals()["test_" + _name] = _make(_name)  # collected; not listed


def test_world():
    """Writes sys.argv, sys.path, the folder and the environment the test
    sees to the file TESTDEX_FIXTURE_WORLD names, when it is set."""
    import json

    out = os.environ.get("TESTDEX_FIXTURE_WORLD")
    if out:
        with open(out, "w") as f:
            json.dump({"argv": sys.argv, "path": sys.path, "cwd": os.getcwd(), "env": dict(os.environ)}, f)


def _record_pid(pid):
    """Appends pid to the file TESTDEX_FIXTURE_PIDS names, when it is set, so
    that the test driving this fixture can check by PID that testdex left
    none of its processes running; the process importing this module records
    itself."""
    if os.environ.get("TESTDEX_FIXTURE_PIDS"):
        with open(os.environ["TESTDEX_FIXTURE_PIDS"], "a") as f:
            f.write(f"{pid}\n")
    return pid


_record_pid(os.getpid())
