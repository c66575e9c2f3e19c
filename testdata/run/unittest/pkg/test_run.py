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
        subprocess.Popen(["sleep", "296"])

    def test_loud(self):
        """Prints two megabytes."""
        if not os.environ.get("TESTDEX_FIXTURE_LOUD"):
            self.skipTest("set TESTDEX_FIXTURE_LOUD to print megabytes")
        line = "x" * 1023 + "\n"
        for _ in range(2048):
            sys.stdout.write(line)
