"""testdex's unittest driver: loads tests as `python -m unittest` does in
the current folder (the project folder) and writes one JSON object a line
per event on its standard output, which carries nothing else.

Usage: python runner_unittest.py CONFIG_FILE

CONFIG_FILE is JSON: {"discover": [folders], "modules": [dotted names],
"names": [dotted names], "timeout": seconds or 0, "coverage": {"module":
path} or absent, "keep": {"files", "dirs", "names"} or absent}. Each folder
is discovered with pattern test*.py and the current folder as the top level
("." is `python -m unittest` without arguments), each module and name is
loaded with TestLoader.loadTestsFromName. With "keep" (a shard's part of a
folder's run, loaded whole so that each package's load_tests builds the
suite as in the whole run), only the tests whose home (the test module or
package that loaded them) is one of its files or under one of its dirs, or
whose id or home module is or starts with one of its names, run.

The tests see the world `python -m unittest` gives them: sys.argv is
["python -m unittest"], sys.path[0] the current folder, and nothing is
added to the environment (the per-test timeout comes in the file).

Standard output is reserved for the events as in runner_pytest.py: the real
fd 1 is duplicated (non-inheritable) for them and fd 1 is pointed at stderr.
Each test's sys.stdout and sys.stderr are captured and sent as its output.
The timeout arms SIGALRM around each test: the handler raises in the test,
which then fails with "timed out after Ns".

Events: {"action": "run"|"pass"|"fail"|"skip"|"output", "nodeid": the
test's id(), "decl": the file declaring its class, relative to the current
folder, "elapsed", "message", "file", "line", "output"}, one result per test
method and nothing for classes. A failed subTest fails its method, its
parameters leading the message; an expected failure is a skip, an
unexpected success a failure. A module that fails to import, a failing
setUpClass or setUpModule, is the run's output (an empty nodeid) and makes
the exit status 1: `python -m unittest` counts such a module as one more
errored test, testdex as the batch's error, as pytest's collection errors.

With "coverage", runner_coverage.py records each test under a coverage
context of its own from startTest to stopTest (setUpClass and setUpModule
run outside any: their lines go to every test), started before the tests
are loaded so import-time lines are recorded; its "covered" events follow
the results.
"""
import fnmatch
import io
import json
import os
import signal
import sys
import time
import traceback
import unittest

OUTPUT_CAP = 64 << 10
EVENTS = None  # the reserved fd, set by main


def emit(**ev):
    data = (json.dumps(ev) + "\n").encode()
    while data:
        data = data[os.write(EVENTS, data):]


class TestTimeout(Exception):
    pass


def declaring_file(test, cache={}):
    """The file of the module declaring the test's class, relative to the
    current folder; "" outside it."""
    mod = type(test).__module__
    if mod not in cache:
        path = getattr(sys.modules.get(mod), "__file__", None) or ""
        rel = os.path.relpath(os.path.abspath(path)) if path else ""
        cache[mod] = "" if not rel or rel.startswith(os.pardir + os.sep) else rel.replace(os.sep, "/")
    return cache[mod]


class Result(unittest.TestResult):
    """Turns TestResult's hooks into events; a test's result is final at
    stopTest, where its output is sent first."""

    def __init__(self, timeout, recorder=None):
        super().__init__()
        self.timeout = timeout
        self.recorder = recorder

    def startTest(self, test):
        super().startTest(test)
        self.st = {"action": "pass"}
        decl = declaring_file(test)
        self.names = {"nodeid": test.id(), **({"decl": decl} if decl else {})}
        self.t0 = time.monotonic()
        self.saved = sys.stdout, sys.stderr
        self.out = io.StringIO()
        sys.stdout = sys.stderr = self.out
        emit(action="run", **self.names)
        if self.recorder is not None:
            self.recorder.begin(test.id(), **self.names)
        if self.timeout:
            signal.setitimer(signal.ITIMER_REAL, self.timeout)

    def stopTest(self, test):
        if self.timeout:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if self.recorder is not None:
            self.recorder.end()
        sys.stdout, sys.stderr = self.saved
        super().stopTest(test)
        st, out = self.st, self.out.getvalue()
        st["elapsed"] = time.monotonic() - self.t0
        tb = st.pop("traceback", "")
        if tb or out:
            text = tb + out
            if len(text) > OUTPUT_CAP:  # the head and the tail, where a reason printed last is
                half = OUTPUT_CAP // 2
                text = "%s\n[testdex: %d bytes of output left out]\n%s" % (text[:half], len(text) - 2 * half, text[-half:])
            emit(action="output", output=text, **self.names)
        emit(**self.names, **st)

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
            # setUpClass and setUpModule failures: the run's output.
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


def walk(suite):
    """The tests of a suite, without the placeholders of names that did
    not load (their errors are in loader.errors)."""
    if isinstance(suite, unittest.TestSuite):
        for t in suite:
            yield from walk(t)
    elif type(suite).__name__ != "_FailedTest":
        yield suite


class HomeLoader(unittest.TestLoader):
    """A TestLoader that notes each test's home: the file of the test module
    (its name matches the pattern) or package (its __init__.py) of the
    innermost loadTestsFromModule call that returned it. A package's
    load_tests that adds the tests of a module of another name, or builds
    them itself, makes them its package's."""

    def __init__(self):
        super().__init__()
        self.homes = {}  # id() of a test -> its home, relative to the current folder

    def loadTestsFromModule(self, module, *args, **kws):
        suite = super().loadTestsFromModule(module, *args, **kws)
        home = home_file(module)
        if home:
            for t in walk(suite):
                self.homes.setdefault(id(t), home)
        return suite


def home_file(module):
    """The file of a test module or package, relative to the current folder;
    "" for another module or one outside it."""
    path = getattr(module, "__file__", None) or ""
    base = os.path.basename(path)
    if not (base == "__init__.py" or fnmatch.fnmatch(base, "test*.py")):
        return ""
    rel = os.path.relpath(os.path.abspath(path))
    return "" if rel.startswith(os.pardir + os.sep) else rel.replace(os.sep, "/")


def kept(test, home, keep):
    """Whether the part keep runs test, whose home is home: a name keeps the
    tests whose id it is or starts, and those of the module or package it
    names (a record run through its module names the module: the classes
    its load_tests makes bear another module's name)."""
    tid = test.id()
    mod = home[:-len("/__init__.py")] if home.endswith("/__init__.py") else home[:-len(".py")]
    mod = mod.replace("/", ".")
    for n in keep["names"]:
        if tid == n or tid.startswith(n + ".") or (home and (mod == n or mod.startswith(n + "."))):
            return True
    return bool(home) and (home in keep["files"] or any(
        d == "." or home.startswith(d + "/") for d in keep["dirs"]))


def load(config):
    """The suite the configuration selects, in its order, and the loading
    errors. With "keep", the tests outside the part are left out after
    loading (see kept)."""
    loader = HomeLoader()
    suite = unittest.TestSuite()
    errors = []
    top = os.getcwd()
    for start in config.get("discover", []):
        try:
            suite.addTests(walk(loader.discover(start, pattern="test*.py", top_level_dir=top)))
        except ImportError as e:  # a start folder that is no package
            errors.append("discover %s: %s\n" % (start, e))
    for name in config.get("modules", []) + config.get("names", []):
        suite.addTests(walk(loader.loadTestsFromName(name)))
    keep = config.get("keep")
    if keep is not None:
        suite = unittest.TestSuite(t for t in suite if kept(t, loader.homes.get(id(t), ""), keep))
    return suite, errors + loader.errors


def alarm(timeout):
    def handler(signum, frame):
        raise TestTimeout("timed out after %gs" % timeout)
    return handler


def main():
    """Reserves stdout for the events, gives the tests unittest's argv and
    sys.path, and runs the selection. Everything with an effect is here,
    not at import: a multiprocessing child started with spawn imports this
    module."""
    global EVENTS
    EVENTS = os.dup(1)
    os.dup2(2, 1)
    with open(sys.argv[1]) as f:
        config = json.load(f)
    sys.argv = ["python -m unittest"]  # as unittest's __main__ sets it
    sys.path[0] = os.getcwd()  # as python -m puts it
    timeout = float(config.get("timeout") or 0)
    if timeout:
        signal.signal(signal.SIGALRM, alarm(timeout))
    recorder = None
    if config.get("coverage"):
        recorder = coverage_recorder(config["coverage"])
        recorder.start()  # before loading: import-time lines are recorded
    try:
        suite, errors = load(config)
        for err in errors:
            emit(action="output", nodeid="", output=err if err.endswith("\n") else err + "\n")
        result = Result(timeout, recorder)
        suite.run(result)
    finally:
        if recorder is not None:
            recorder.finish()
    return 0 if result.wasSuccessful() and not errors else 1


def coverage_recorder(cfg):
    """The per-test coverage recorder of runner_coverage.py, as in
    runner_pytest.py."""
    import importlib.util
    if importlib.util.find_spec("coverage") is None:
        emit(action="output", nodeid="", output="testdex: coverage is not installed for %s "
             "(run: %s -m pip install coverage)\n" % (sys.executable, sys.executable))
        sys.exit(3)
    spec = importlib.util.spec_from_file_location("_testdex_coverage", cfg["module"])
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.Recorder(emit)


if __name__ == "__main__":
    sys.exit(main())
