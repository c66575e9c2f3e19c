"""testdex's unittest driver: runs the dotted test names listed in a file
(package.module.Class.method, or a class) and writes one JSON object a line
per event on its standard output, which carries nothing else.

Usage: python3 runner_unittest.py IDS_FILE

Standard output is reserved for the events as in runner_pytest.py: the real
fd 1 is duplicated (non-inheritable) for them and fd 1 is pointed at stderr.
Each test's sys.stdout and sys.stderr are captured and sent as its output.
TESTDEX_TEST_TIMEOUT (seconds) arms SIGALRM around each test: the handler
raises in the test, which then fails with "timed out after Ns".
"""
import io
import json
import os
import signal
import sys
import time
import traceback
import unittest

EVENTS = os.dup(1)
os.dup2(2, 1)
sys.path[0] = os.getcwd()  # as python -m unittest does

OUTPUT_CAP = 64 << 10


def emit(**ev):
    data = (json.dumps(ev) + "\n").encode()
    while data:
        data = data[os.write(EVENTS, data):]


class TestTimeout(Exception):
    pass


class Result(unittest.TestResult):
    """Turns TestResult's hooks into events; a test's result is final at
    stopTest, where its output is sent first."""

    def __init__(self, timeout, tests):
        super().__init__()
        self.timeout = timeout
        self.classes = {}
        self.pending = {}
        for t in tests:
            cls = t.id().rsplit(".", 1)[0]
            self.pending[cls] = self.pending.get(cls, 0) + 1

    def startTest(self, test):
        super().startTest(test)
        self.st = {"action": "pass"}
        self.t0 = time.monotonic()
        self.saved = sys.stdout, sys.stderr
        self.out = io.StringIO()
        sys.stdout = sys.stderr = self.out
        emit(action="run", nodeid=test.id())
        if self.timeout:
            signal.setitimer(signal.ITIMER_REAL, self.timeout)

    def stopTest(self, test):
        if self.timeout:
            signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout, sys.stderr = self.saved
        super().stopTest(test)
        st, out = self.st, self.out.getvalue()
        st["elapsed"] = time.monotonic() - self.t0
        tb = st.pop("traceback", "")
        if tb or out:
            text = tb + out
            if len(text) > OUTPUT_CAP:
                text = text[:OUTPUT_CAP] + "\n[testdex: %d more bytes of output left out]\n" % (len(text) - OUTPUT_CAP)
            emit(action="output", nodeid=test.id(), output=text)
        emit(nodeid=test.id(), **st)
        self.finish_class(test.id(), st)

    def fail(self, test, err):
        if self.st["action"] == "fail":
            return
        exc = err[1]
        self.st["action"] = "fail"
        self.st["message"] = "".join(traceback.format_exception_only(err[0], exc)).strip().removeprefix("AssertionError: ").split("\n", 1)[0]
        if isinstance(exc, TestTimeout):
            self.st["message"] = str(exc)
        self.st["traceback"] = self._exc_info_to_string(err, test)
        tb = err[2]
        while tb is not None:
            path = tb.tb_frame.f_code.co_filename
            if path.startswith(os.getcwd() + os.sep) and "site-packages" not in path:
                self.st["file"], self.st["line"] = os.path.relpath(path), tb.tb_lineno
            tb = tb.tb_next

    def addError(self, test, err):
        super().addError(test, err)
        if isinstance(test, unittest.TestCase):
            self.fail(test, err)
        else:
            # setUpClass, setUpModule and import failures: the run's output.
            emit(action="output", nodeid="", output="ERROR %s\n%s" % (test, self._exc_info_to_string(err, test)))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.fail(test, err)

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None and self.st["action"] != "fail":
            self.fail(test, err)
            self.st["message"] = subtest._subDescription().strip() + ": " + self.st["message"]

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.st.update(action="skip", message=reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.st.update(action="skip", message="expected failure")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.st.update(action="fail", message="unexpected success")

    def finish_class(self, name, st):
        """Gives a class its result from its methods as soon as the last
        one ends: fail if one failed, pass if one passed, skip otherwise."""
        cls = name.rsplit(".", 1)[0]
        c = self.classes.setdefault(cls, {"action": "skip", "elapsed": 0.0})
        c["elapsed"] += st["elapsed"]
        if st["action"] == "fail" or (st["action"] == "pass" and c["action"] == "skip"):
            c["action"] = st["action"]
        self.pending[cls] = self.pending.get(cls, 1) - 1
        if self.pending[cls] == 0:
            emit(nodeid=cls, **self.classes.pop(cls))


def walk(suite):
    """The tests of a suite; names that did not load are in loader.errors."""
    if isinstance(suite, unittest.TestSuite):
        for t in suite:
            yield from walk(t)
    else:
        yield suite


def alarm(signum, frame):
    raise TestTimeout("timed out after %ss" % os.environ["TESTDEX_TEST_TIMEOUT"])


def main():
    with open(sys.argv[1]) as f:
        names = [line.strip() for line in f if line.strip()]
    timeout = float(os.environ.get("TESTDEX_TEST_TIMEOUT") or 0)
    if timeout:
        signal.signal(signal.SIGALRM, alarm)
    suite = unittest.TestSuite()
    loader = unittest.TestLoader()
    for name in names:
        suite.addTests(t for t in walk(loader.loadTestsFromName(name)) if type(t).__name__ != "_FailedTest")
    for err in loader.errors:
        emit(action="output", nodeid="", output=err)
    result = Result(timeout, list(walk(suite)))
    suite.run(result)
    return 0 if result.wasSuccessful() and not loader.errors else 1


if __name__ == "__main__":
    sys.exit(main())
