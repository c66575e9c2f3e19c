"""testdex's pytest driver: runs the node IDs listed in a file and writes one
JSON object a line per event on its standard output, which carries nothing
else.

Usage: python3 runner_pytest.py IDS_FILE [pytest arguments...]

Standard output is reserved for the events: the real fd 1 is duplicated for
them before pytest starts, then fd 1 is pointed at stderr, so pytest's own
report, the tests' uncaptured output and any child process write to stderr.
Each event is written with one os.write call on the reserved fd, which no
child inherits (Python's dup is non-inheritable), so no other writer can
interleave with it.

Events: {"action": "run"|"pass"|"fail"|"skip"|"output", "nodeid": ...,
"elapsed", "message", "file", "line", "output"}; an empty nodeid is the whole
run's. Files are relative to the rootdir (the working folder).
"""
import json
import os
import sys

EVENTS = os.dup(1)
os.dup2(2, 1)
sys.path[0] = os.getcwd()  # as python -m pytest does

import pytest  # noqa: E402

OUTPUT_CAP = 64 << 10


def emit(**ev):
    data = (json.dumps(ev) + "\n").encode()
    while data:
        data = data[os.write(EVENTS, data):]


def cap(text):
    if len(text) <= OUTPUT_CAP:
        return text
    return text[:OUTPUT_CAP] + "\n[testdex: %d more bytes of output left out]\n" % (len(text) - OUTPUT_CAP)


class Plugin:
    """Turns pytest's report hooks into events; results are final at
    logfinish, since a teardown error fails a test that passed."""

    def __init__(self):
        self.state = {}
        self.pending = {}
        self.parents = {}
        self.root = None

    def pytest_configure(self, config):
        self.root = str(config.rootpath)
        self.worker = hasattr(config, "workerinput")
        timeout = os.environ.get("TESTDEX_TEST_TIMEOUT")
        if not timeout or self.worker:
            return
        if config.pluginmanager.hasplugin("timeout"):
            if not getattr(config.option, "timeout", None):
                config.option.timeout = float(timeout)
        else:
            emit(action="output", nodeid="", output="testdex: a per-test timeout needs pytest-timeout "
                 "(pip install pytest-timeout); only the run's --timeout applies\n")

    def pytest_collectreport(self, report):
        if report.failed and not self.worker:
            emit(action="output", nodeid="", output="ERROR collecting %s\n%s\n" % (report.nodeid, report.longreprtext))

    def pytest_runtest_logstart(self, nodeid, location):
        if not self.worker:
            self.state[nodeid] = {"action": "pass", "elapsed": 0.0}
            emit(action="run", nodeid=nodeid)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        rep = outcome.get_result()
        if call.excinfo is not None and rep.failed:
            loc = self.location(call.excinfo)
            if loc:
                rep.testdex_location = loc

    def location(self, excinfo):
        """The deepest traceback entry in the project (under the rootdir,
        outside site-packages), where the failure shows in the tests."""
        for entry in reversed(excinfo.traceback):
            p = str(entry.path)
            if p.startswith(self.root + os.sep) and "site-packages" not in p:
                return [os.path.relpath(p, self.root), entry.lineno + 1]
        return None

    def pytest_runtest_logreport(self, report):
        st = self.state.get(report.nodeid)
        if st is None:
            return
        st["elapsed"] += report.duration
        xfail = getattr(report, "wasxfail", None)
        if report.failed and st["action"] != "fail":
            st["action"] = "fail"
            st["message"] = self.message(report)
            loc = getattr(report, "testdex_location", None)
            if loc:
                st["file"], st["line"] = loc
            elif getattr(report.longrepr, "reprcrash", None) is not None:
                st["file"] = os.path.relpath(report.longrepr.reprcrash.path, self.root)
                st["line"] = report.longrepr.reprcrash.lineno
            st["traceback"] = report.longreprtext
        elif report.skipped and st["action"] == "pass":
            st["action"] = "skip"
            if xfail is not None:
                st["message"] = ("xfail: " + xfail).rstrip(": ")
            elif isinstance(report.longrepr, tuple):
                st["message"] = report.longrepr[2].removeprefix("Skipped: ")
        elif report.passed and xfail is not None and report.when == "call":
            st["message"] = ("xpass: " + xfail).rstrip(": ")
        if report.when == "teardown":
            st["output"] = "".join("----- %s -----\n%s" % (t, c if c.endswith("\n") else c + "\n")
                                   for t, c in report.sections)

    def message(self, report):
        """The first line of the exception's message (the traceback and the
        rest go in the test's output)."""
        crash = getattr(report.longrepr, "reprcrash", None)
        if crash is not None:
            return crash.message.removeprefix("AssertionError: ").split("\n", 1)[0]
        if isinstance(report.longrepr, tuple):
            return report.longrepr[2]
        return str(report.longrepr).strip().splitlines()[-1] if report.longrepr else report.when + " failed"

    def pytest_runtest_logfinish(self, nodeid, location):
        st = self.state.pop(nodeid, None)
        if st is None:
            return
        out = st.pop("traceback", "")
        if out:
            out += "\n"
        out += st.pop("output", "")
        if out:
            emit(action="output", nodeid=nodeid, output=cap(out))
        emit(nodeid=nodeid, **st)
        self.finish_parents(nodeid, st)

    def pytest_collection_finish(self, session):
        """Counts each class's and parametrized function's items, so that
        its result goes out as soon as its last item ends (and survives a
        run killed later)."""
        self.pending = {}
        for item in session.items:
            for a in ancestors(item.nodeid):
                self.pending[a] = self.pending.get(a, 0) + 1

    def finish_parents(self, nodeid, st):
        """Gives a class or parametrized function its result from its items,
        as pytest reports none: fail if one failed, pass if one passed, skip
        otherwise."""
        for a in sorted(ancestors(nodeid), key=len, reverse=True):
            p = self.parents.setdefault(a, {"action": "skip", "elapsed": 0.0})
            p["elapsed"] += st["elapsed"]
            if st["action"] == "fail" or (st["action"] == "pass" and p["action"] == "skip"):
                p["action"] = st["action"]
            self.pending[a] = self.pending.get(a, 1) - 1
            if self.pending[a] == 0:
                emit(nodeid=a, **self.parents.pop(a))


def ancestors(nodeid):
    """The node IDs of an item's class, nested classes and parametrized
    function (not its module or folders)."""
    name = nodeid.split("[", 1)[0] if nodeid.endswith("]") else nodeid
    parts = name.split("::")
    out = {"::".join(parts[:i]) for i in range(2, len(parts))}
    if name != nodeid:
        out.add(name)
    return out


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        ids = [line.rstrip("\n") for line in f if line.strip()]
    sys.exit(pytest.main(sys.argv[2:] + ids, plugins=[Plugin()]))
