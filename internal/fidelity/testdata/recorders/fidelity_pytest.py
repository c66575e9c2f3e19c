"""A pytest plugin that records each test's outcome by node ID.

Loaded with `-p fidelity_pytest` (this folder on PYTHONPATH); writes one
JSON object a line, {"scope": "", "name": NODEID, "outcome": ...}, to the
file named by FIDELITY_OUT when the session ends. A test failing in any
phase (setup, call, teardown) is a failure; one skipped in setup or call is
a skip, xfail included (as JUnit XML counts it); a collection error is a
failure under the collector's node ID.
"""
import json
import os

_results = {}
_rank = {"pass": 1, "skip": 2, "fail": 3}


def _add(nodeid, outcome):
    if _rank[outcome] > _rank.get(_results.get(nodeid), 0):
        _results[nodeid] = outcome


def pytest_runtest_logreport(report):
    if report.failed:
        _add(report.nodeid, "fail")
    elif report.skipped:
        _add(report.nodeid, "skip")
    elif report.when == "call":
        _add(report.nodeid, "pass")


def pytest_collectreport(report):
    if report.failed:
        _add(report.nodeid, "fail")


def pytest_sessionfinish(session):
    with open(os.environ["FIDELITY_OUT"], "w", encoding="utf-8") as f:
        for nodeid, outcome in _results.items():
            f.write(json.dumps({"scope": "", "name": nodeid, "outcome": outcome}) + "\n")
