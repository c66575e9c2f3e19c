"""Runs `python -m unittest [ARGS...]` and records each test's outcome.

Usage: python fidelity_unittest.py OUT [ARGS...]. The tests see what they
see under `python -m unittest ARGS` (the current folder first on sys.path,
argv[0] "python -m unittest"); OUT gets one JSON object a line,
{"scope": "", "name": TEST_ID, "outcome": ...}. A failing subtest fails its
test; an expected failure counts as a skip (as JUnit XML counts it); an
unexpected success as a failure.
"""
import json
import os
import sys
import unittest

_results = {}
_rank = {"pass": 1, "skip": 2, "fail": 3}


def _add(test, outcome):
    tid = test.id()
    if _rank[outcome] > _rank.get(_results.get(tid), 0):
        _results[tid] = outcome


class Result(unittest.TextTestResult):
    def addSuccess(self, test):
        super().addSuccess(test)
        _add(test, "pass")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        _add(test, "fail")

    def addError(self, test, err):
        super().addError(test, err)
        _add(test, "fail")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        _add(test, "skip")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        _add(test, "skip")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        _add(test, "fail")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            _add(test, "skip" if issubclass(err[0], unittest.SkipTest) else "fail")


def main():
    out = sys.argv[1]
    sys.argv = ["python -m unittest"] + sys.argv[2:]
    sys.path[0] = os.getcwd()
    prog = unittest.main(module=None, testRunner=unittest.TextTestRunner(resultclass=Result), exit=False)
    with open(out, "w", encoding="utf-8") as f:
        for tid, outcome in _results.items():
            f.write(json.dumps({"scope": "", "name": tid, "outcome": outcome}) + "\n")
    sys.exit(0 if prog.result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
