"""testdex's pytest driver: runs pytest in the current folder (the rootdir)
as the `pytest` command would, and writes one JSON object a line per event
on its standard output, which carries nothing else.

Usage: python runner_pytest.py CONFIG_FILE

CONFIG_FILE is JSON: {"options": [...], "extra": [...], "select": [...],
"timeout": seconds or 0}. pytest.main receives options (testdex's own:
-q --no-header --no-summary), extra (the user's arguments) and select (the
paths and node IDs to run; none runs what pytest's own configuration
chooses, testpaths included).

The tests see the world `pytest EXTRA` gives them: sys.argv is [the pytest
console script, *extra] and sys.path[0] its folder, set before pytest is
run; the driver's own arguments go to pytest.main only, and nothing
is added to the environment (the per-test timeout comes in the file).

Standard output is reserved for the events: the real fd 1 is duplicated for
them before pytest starts, then fd 1 is pointed at stderr, so pytest's own
report, the tests' uncaptured output and any child process write to stderr.
Each event is written with one os.write call on the reserved fd, which no
child inherits (Python's dup is non-inheritable), so no other writer can
interleave with it.

Events: {"action": "run"|"pass"|"fail"|"skip"|"output", "nodeid": ...,
"elapsed", "message", "file", "line", "output"}, one result per item pytest
runs and nothing for classes or parametrized functions, which pytest does
not report either; an empty nodeid is the whole run's (a collection error's
text). Files are relative to the rootdir (the working folder).

Exit status: pytest's own, except 5 (no tests collected), which is 0: the
run ran nothing, and testdex says which listed tests were not reported.
"""
import json
import os
import sys
import sysconfig

import pytest

OUTPUT_CAP = 64 << 10
EVENTS = None  # the reserved fd, set by main


def console_script():
    """The pytest console script of this interpreter (its scripts folder,
    then the user scheme's, as pip installs it), or "pytest"."""
    dirs = [sysconfig.get_path("scripts")]
    try:
        dirs.append(sysconfig.get_path("scripts", sysconfig.get_preferred_scheme("user")))
    except (AttributeError, KeyError):  # Python < 3.10
        dirs.append(sysconfig.get_path("scripts", os.name + "_user"))
    exe = ".exe" if os.name == "nt" else ""
    for d in dirs:
        if d and os.path.isfile(os.path.join(d, "pytest" + exe)):
            return os.path.join(d, "pytest" + exe)
    return "pytest"


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

    def __init__(self, timeout):
        self.timeout = timeout
        self.state = {}
        self.root = None

    def pytest_configure(self, config):
        self.root = str(config.rootpath)
        self.worker = hasattr(config, "workerinput")
        if not self.timeout or self.worker:
            return
        if config.pluginmanager.hasplugin("timeout"):
            if not getattr(config.option, "timeout", None):
                config.option.timeout = float(self.timeout)
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


def main():
    """Reserves stdout for the events, gives the tests pytest's argv and
    sys.path, and runs pytest. Everything with an effect is here, not at
    import: a multiprocessing child started with spawn imports this module."""
    global EVENTS
    EVENTS = os.dup(1)
    os.dup2(2, 1)
    with open(sys.argv[1]) as f:
        config = json.load(f)
    script = console_script()
    sys.argv = [script] + config.get("extra", [])
    if os.path.isabs(script):
        sys.path[0] = os.path.dirname(os.path.realpath(script))  # as the script's own run has it
    else:
        del sys.path[0]  # the driver's folder is no folder of the tests
    args = config.get("options", []) + config.get("extra", []) + config.get("select", [])
    code = pytest.main(args, plugins=[Plugin(config.get("timeout") or 0)])
    return 0 if code == pytest.ExitCode.NO_TESTS_COLLECTED else code


if __name__ == "__main__":
    sys.exit(main())
