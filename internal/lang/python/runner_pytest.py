"""testdex's pytest driver: runs pytest in the current folder (the rootdir)
as the `pytest` command would, and writes one JSON object a line per event
on its standard output, which carries nothing else.

Usage: python runner_pytest.py CONFIG_FILE

CONFIG_FILE is JSON: {"options": [...], "extra": [...], "select": [...],
"timeout": seconds or 0, "coverage": {"module": path} or
absent, "only": {"paths": [...], "ids": [...]} or absent}. pytest.main
receives options (testdex's own: -q --no-header --no-summary), extra (the
user's arguments) and select (the paths and node IDs to run; none runs
what pytest's own configuration chooses, testpaths included). With
"only", the driver keeps only that part of what select collects (class
Only: a shard's part of a folder's run, collected under the project's own
rules).

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

With "coverage", runner_coverage.py (loaded from "module") records each
test under a coverage context of its own, from the start of its setup to
the end of its teardown, and its "covered" events follow the run's results
(see its doc string). pytest-cov, when installed, gets --no-cov: two
tracers cannot both record. Under pytest-xdist nothing is recorded (the
tests run in workers) and the run says so. Without "coverage" nothing of it
is imported.

Exit status: pytest's own, except 5 (no tests collected), which is 0: the
run ran nothing, and testdex says which listed tests were not reported.
"""
import dataclasses
import json
import os
import pathlib
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
    """The text within OUTPUT_CAP: its head and its tail, with a line
    saying how much of the middle was left out, so a reason printed last
    survives."""
    if len(text) <= OUTPUT_CAP:
        return text
    half = OUTPUT_CAP // 2
    return "%s\n[testdex: %d bytes of output left out]\n%s" % (text[:half], len(text) - 2 * half, text[-half:])


class Plugin:
    """Turns pytest's report hooks into events; results are final at
    logfinish, since a teardown error fails a test that passed."""

    def __init__(self, timeout, recorder=None):
        self.timeout = timeout
        self.recorder = recorder
        self.state = {}
        self.root = None

    def pytest_configure(self, config):
        self.root = str(config.rootpath)
        self.worker = hasattr(config, "workerinput")
        if self.recorder and getattr(config.option, "dist", "no") not in ("no", None) and getattr(config.option, "tx", None):
            self.recorder.disable("pytest-xdist runs the tests in worker processes (run with -p no:xdist or -n 0 to record it)")
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

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_protocol(self, item, nextitem):
        """With coverage, the test's context spans its setup, call and
        teardown; its fixture closure's wider-scoped fixtures are noted."""
        if self.recorder is None or self.worker:
            yield
            return
        self.recorder.begin(item.nodeid, nodeid=item.nodeid)
        defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", None)
        for name in getattr(item, "fixturenames", ()):
            for fd in (defs or {}).get(name, ()):
                if fd.scope != "function":
                    self.recorder.uses(item.nodeid, str(id(fd)))
        yield
        self.recorder.end()

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_fixture_setup(self, fixturedef, request):
        """With coverage, a fixture wider than a function sets up under a
        context of its own, which goes to every test that uses it."""
        if self.recorder is None or fixturedef.scope == "function":
            yield
            return
        from_ctx = self.recorder.switch(self.recorder.fixture_context(str(id(fixturedef))))
        yield
        self.recorder.switch(from_ctx)

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


class Only:
    """Keeps part of a collection (the configuration's "only"): the files
    and folders of paths, and the tests whose node IDs are, or start
    (a function's rows, a class's methods), an ID of ids; all
    rootdir-relative. A file neither selected nor holding a selected ID is
    ignored before it is imported; the others defer to the project's own
    rules (conftest.py's collect_ignore, pytest's --ignore), which pytest
    applies to what it finds below its arguments, never to an argument."""

    def __init__(self, root, paths, ids, select, named):
        self.root = root
        self.paths = [p.rstrip("/") for p in paths]
        self.ids = ids
        self.keep = self.paths + [i.split("::", 1)[0] for i in ids]
        self.select, self.named = select, named
        self.off = False

    def pytest_configure(self, config):
        """Under pytest-xdist the workers collect what the command line
        names and load no plugin given to pytest.main, so this one could
        not keep their part: they are handed the part by name instead (the
        project's collect_ignore then does not apply to those files, as
        with pytest run on them), and this plugin keeps out of the way."""
        if getattr(config.option, "dist", "no") in ("no", None) or not getattr(config.option, "tx", None):
            return
        self.off = True
        args = list(config.invocation_params.args)
        if self.select:
            args = args[:len(args) - len(self.select)]
        named = [n for n in self.named if not self.left_out(config, n.split("::", 1)[0])]
        if self.named and not named:  # everything named is left out: nothing runs, as in the whole run
            named = ["-m", "testdex_left_out and not testdex_left_out"]
        ip = config.invocation_params
        try:
            config.invocation_params = dataclasses.replace(ip, args=tuple(args + named))
        except TypeError:  # pytest before 7.2 made it with attrs
            config.invocation_params = type(ip)(args=tuple(args + named), plugins=ip.plugins, dir=ip.dir)

    def left_out(self, config, rel):
        """Whether the project's rules leave out a rootdir-relative file
        pytest's walk from the selected folders would reach (conftest.py's
        collect_ignore, --ignore, norecursedirs): asked of
        pytest_ignore_collect for it and each folder between it and the
        selected folder, as the walk asks. Unknown (an older pytest): no."""
        parts = rel.split("/")
        tops = [a.rstrip("/").split("/") for a in self.select if not a.startswith("-")] or [[]]
        below = [len(t) for t in tops if t == [] or t == ["."] or parts[:len(t)] == t]
        if not below:
            return False  # named on the command line anyway: no rule applies to it
        try:
            for i in range(max(1, min(below) + 1), len(parts) + 1):
                p = pathlib.Path(self.root, *parts[:i])
                if config.hook.pytest_ignore_collect(collection_path=p, config=config):
                    return True
        except Exception:
            return False
        return False

    def local(self, item):
        """An item's file and node ID relative to the working folder, which
        the paths and IDs are relative to: pytest's node IDs are relative to
        its rootdir, which an ini file above may have put elsewhere."""
        file, sep, rest = item.nodeid.partition("::")
        fspath = getattr(item, "path", None) or getattr(item, "fspath", None)
        if fspath is not None:
            file = self.rel(fspath)
        return file, file + sep + rest

    def rel(self, p):
        r = os.path.relpath(str(p), self.root).replace(os.sep, "/")
        return "" if r == "." else r

    def ignore(self, p):
        if self.off:
            return None
        r = self.rel(p)
        for k in self.keep:
            if k in ("", ".") or r == "" or r == k or k.startswith(r + "/") or r.startswith(k + "/"):
                return None  # the project's rules decide
        return True

    if int(pytest.__version__.split(".")[0]) < 7:  # the hook's argument was a py.path
        def pytest_ignore_collect(self, path, config):
            return self.ignore(path)
    else:
        def pytest_ignore_collect(self, collection_path, config):
            return self.ignore(collection_path)

    def pytest_collection_modifyitems(self, session, config, items):
        if self.off:
            return
        keep, drop = [], []
        for item in items:
            f, nodeid = self.local(item)
            whole = any(p in ("", ".") or f == p or f.startswith(p + "/") for p in self.paths)
            named = any(nodeid == i or nodeid.startswith((i + "[", i + "::")) for i in self.ids)
            (keep if whole or named else drop).append(item)
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep


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
    recorder = None
    if config.get("coverage"):
        recorder = coverage_recorder(config["coverage"])
        if pytest_cov_loads():
            args.append("--no-cov")  # one tracer: pytest-cov's would take over from ours
        recorder.start()
    try:
        plugins = [Plugin(config.get("timeout") or 0, recorder)]
        if config.get("only") is not None:
            only = config["only"]
            plugins.append(Only(os.getcwd(), only["paths"], only["ids"], config.get("select", []), only.get("named", [])))
        code = pytest.main(args, plugins=plugins)
    finally:
        if recorder is not None:
            recorder.finish()
    return 0 if code == pytest.ExitCode.NO_TESTS_COLLECTED else code


def coverage_recorder(cfg):
    """The per-test coverage recorder of runner_coverage.py, loaded from
    the path in the configuration under a private name (never importable
    by the tests as a module of theirs). A missing coverage module ends the
    run before any test, with the fix."""
    import importlib.util
    if importlib.util.find_spec("coverage") is None:
        emit(action="output", nodeid="", output="testdex: coverage is not installed for %s "
             "(run: %s -m pip install coverage)\n" % (sys.executable, sys.executable))
        sys.exit(3)
    spec = importlib.util.spec_from_file_location("_testdex_coverage", cfg["module"])
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.Recorder(emit)


def pytest_cov_loads():
    """Whether pytest-cov is installed and loads by its entry point, so that
    its --no-cov option exists."""
    import importlib.util
    return importlib.util.find_spec("pytest_cov") is not None and not os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD")


if __name__ == "__main__":
    sys.exit(main())
