"""The unittest run fixture: tests known to pass, fail, skip, hang, leak a
child process and print megabytes (the last three opt-in through
TESTDEX_FIXTURE_HANG, _LEAK and _LOUD, so that the default run is fast)."""
import os
import subprocess
import sys
import time
import unittest


class TestRun(unittest.TestCase):
    def test_pass(self):
        pass

    def test_fail(self):
        print("some context")
        self.assertEqual(1, 2, "got 1, want 2")

    def test_rows(self):
        for n in (1, 2):
            with self.subTest(n=n):
                self.assertLess(n, 2, "row failed")

    @unittest.skip("not today")
    def test_skip(self):
        pass

    @unittest.expectedFailure
    def test_xfail(self):
        self.fail("known bug")


class TestOther(unittest.TestCase):
    def test_ok(self):
        pass


class TestSlow(unittest.TestCase):
    def test_hang(self):
        """Never ends unless TESTDEX_FIXTURE_HANG is unset."""
        if not os.environ.get("TESTDEX_FIXTURE_HANG"):
            self.skipTest("set TESTDEX_FIXTURE_HANG to hang")
        time.sleep(3600)

    def test_leak(self):
        """Starts a child that outlives the test."""
        if not os.environ.get("TESTDEX_FIXTURE_LEAK"):
            self.skipTest("set TESTDEX_FIXTURE_LEAK to leak a process")
        _record_pid(subprocess.Popen(["sleep", "296"]).pid)

    def test_loud(self):
        """Prints two megabytes."""
        if not os.environ.get("TESTDEX_FIXTURE_LOUD"):
            self.skipTest("set TESTDEX_FIXTURE_LOUD to print megabytes")
        line = "x" * 1023 + "\n"
        for _ in range(2048):
            sys.stdout.write(line)


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
