"""testdex's per-test coverage for its python drivers (runner_pytest.py and
runner_unittest.py load this file by path, under a private module name,
only when the run asks for coverage: without it nothing here is imported).

coverage.py records the run with one dynamic context per test, switched by
the driver itself through Coverage.switch_context as the test starts and
ends, named exactly as the driver's other events name the test (pytest's
node ID with its parameters, unittest's test id()). coverage's own
`dynamic_context = test_function` is not used: it names the test function
only ("test_x", not "t.py::test_x[a-1]"), so parametrized rows and methods
of different classes would share one context, and it misses code a test
runs through fixtures outside the test function's frame.

coverage.py's own data store (SQLite, in memory or not) is bypassed while
the tests run: the collector's data goes to Lines, a dict of sets per
context, at each switch (coverage flushes the tracer's data to its store
there, as it does to its CoverageData), and is read once after the run.
A switch into SQLite and reading contexts back through contexts_by_lineno
cost more than the tracer on a suite of one-millisecond tests. Should a
coverage version lack the collector this relies on (Coverage._collector
with a covdata attribute), the recorder falls back to switch_context into
coverage's CoverageData and reads it back through coverage's API
(measured_files, contexts_by_lineno): slower, the same lines. Either way
one "covered" event per test goes to the driver's event channel, and no
data file is written.

What belongs to which test (safety first: a line a test depends on must be
among its lines, a few more do no harm):

- a test's own context: what ran from the start of its setup to the end of
  its teardown;
- pytest fixtures of a wider scope than the function (class, module,
  package, session) run inside the first test that needs them: each runs
  under a context of its own and its lines go to every test whose fixture
  closure names it;
- "process-wide" lines go to every test of the process: those run outside
  any test (imports at collection, conftest.py, setUpModule, setUpClass,
  session teardown), and the module- or class-level lines of any file run
  under a test (a module imported lazily by the first test that needs it:
  the tests after it depend on its module-level lines too). A line is
  module-level when it lies in no function body (Python's ast). They are
  sent once, as a covered event with an empty nodeid, and the parser adds
  them to each test's.

The project's coverage configuration (.coveragerc, setup.cfg, tox.ini,
pyproject.toml) is read as coverage reads it, with these overrides, each
needed for per-test data that is complete and ours:
  data_file     none: nothing is written (never the project's .coverage);
  source        the working folder (the rootdir or project) plus the
                project's own source entries: a narrower `source` or
                `include` would hide the tests' files and code silently;
  include, omit, source_pkgs, source_dirs  cleared for the same reason
                (source_pkgs joins source);
  dynamic_context, context  none: the driver names the contexts;
  parallel, relative_files  off: one data file, absolute paths;
  branch        off: lines are what the index keeps;
  core          ctrace unless timid: sys.monitoring (the default from
                Python 3.14) does not support switching contexts;
  patch         none: child processes are not measured (their lines
                could not be attributed to a test anyway);
  concurrency   kept, without multiprocessing (its children write data
                files of their own, never combined here).
Code outside the working folder (site-packages) is not measured unless the
project's `source` names it.
"""
import ast
import os
import sys

import coverage

NO_TEST = ""  # the context of everything that runs outside a test
FIXTURE = "testdex-fixture:"


class Recorder:
    """Starts coverage with the overrides above and switches contexts."""

    def __init__(self, emit):
        self.emit = emit
        self.tests = {}  # context -> the event's naming fields, in run order
        self.fixtures = {}  # fixture context -> set of test contexts
        self.current = NO_TEST
        self.disabled = ""
        self.lines = None  # Lines, once the collector writes to it
        cov = coverage.Coverage(data_file=None, config_file=True, auto_data=False)
        source = [os.getcwd()] + list(cov.get_option("run:source") or []) + list(get_option(cov, "run:source_pkgs") or [])
        options = {
            "run:source": source, "run:source_pkgs": [], "run:source_dirs": [], "run:include": [], "run:omit": [],
            "run:dynamic_context": None, "run:context": None, "run:parallel": False, "run:relative_files": False,
            "run:branch": False, "run:patch": [],
            "run:concurrency": [c for c in cov.get_option("run:concurrency") or [] if c != "multiprocessing"],
            "run:disable_warnings": list(cov.get_option("run:disable_warnings") or []) + [
                "module-not-imported", "no-data-collected", "module-not-measured", "no-ctracer"],
        }
        if not cov.get_option("run:timid"):
            options["run:core"] = "ctrace"
        for name, value in options.items():
            try:
                cov.set_option(name, value)
            except Exception:  # an option this coverage version does not have
                pass
        self.cov = cov

    def start(self):
        """Starts coverage, its collector writing to a Lines of ours when
        this coverage version has the collector it relies on."""
        self.cov.start()
        collector = getattr(self.cov, "_collector", None)
        if collector is not None and hasattr(collector, "covdata") and hasattr(collector, "flush_data"):
            self.lines = Lines()
            collector.covdata = self.lines
            collector.flush_data()  # what ran since start, as NO_TEST's

    def disable(self, why):
        """Records nothing for the tests of this run, and says why once (a
        covered event without a test is a note: lang.ActionCovered)."""
        if not self.disabled:
            self.disabled = why
            self.emit(action="covered", nodeid="", message=why)

    def switch(self, context):
        """Switches to context; returns the previous one."""
        prev, self.current = self.current, context
        self.cov.switch_context(context)
        return prev

    def begin(self, context, **names):
        """A test starts: its context, and the fields naming it in events."""
        self.tests.setdefault(context, names)
        self.switch(context)

    def end(self):
        self.switch(NO_TEST)

    def fixture_context(self, fixture):
        """The context a wider-scoped fixture sets up under."""
        return FIXTURE + fixture

    def uses(self, test, fixture):
        """test's fixture closure holds the wider-scoped fixture."""
        self.fixtures.setdefault(FIXTURE + fixture, set()).add(test)

    def finish(self):
        """Stops coverage and reports its data. An error reading it is the
        run's output, never the run's failure."""
        self.cov.stop()
        if self.disabled:
            return
        try:
            by_context = self.cov_lines()
            self.report(by_context)
        except Exception as e:  # the results stand without coverage
            self.emit(action="covered", nodeid="", message="reading coverage.py's data failed: %r" % (e,))

    def cov_lines(self):
        """{context: {file: set of lines}} of the whole run: Lines', or,
        without it, read back from coverage's CoverageData."""
        if self.lines is not None:
            self.cov._collector.flush_data()  # the tracer's last lines, to Lines
            return self.lines.by_context
        by_context = {}
        data = self.cov.get_data()
        for path in data.measured_files():
            for line, contexts in (data.contexts_by_lineno(path) or {}).items():
                for ctx in contexts:
                    by_context.setdefault(ctx or NO_TEST, {}).setdefault(path, set()).add(line)
        return by_context

    def report(self, by_context):
        """Sends the shared lines, then each test's (see the doc string)."""
        owners = {}  # context -> the tests its lines go to
        for ctx in by_context:
            if ctx in self.tests:
                owners[ctx] = (ctx,)
            elif ctx.startswith(FIXTURE) and self.fixtures.get(ctx):
                owners[ctx] = tuple(self.fixtures[ctx])
        # A line is everyone's when it ran outside any test, under a
        # context no test owns (a fixture whose users pytest did not say),
        # or outside every function body.
        shared = {}
        for ctx, files in by_context.items():
            if ctx not in owners:
                for path, lines in files.items():
                    shared.setdefault(path, set()).update(lines)
        bodies = {}
        for files in by_context.values():
            for path, lines in files.items():
                if path not in bodies:
                    bodies[path] = function_body_lines(path)
                body = bodies[path]
                if not isinstance(body, AllLines):
                    outside = [l for l in lines if l not in body]
                    if outside:
                        shared.setdefault(path, set()).update(outside)
        per_test = {ctx: {} for ctx in self.tests}
        for ctx, files in by_context.items():
            for test in owners.get(ctx, ()):
                mine = per_test[test]
                for path, lines in files.items():
                    lines = lines - shared[path] if path in shared else lines
                    if lines:
                        mine.setdefault(path, set()).update(lines)
        self.emit(action="covered", nodeid="", files=spans_of(shared))
        for ctx, names in self.tests.items():
            self.emit(action="covered", files=spans_of(per_test[ctx]), **names)


class Lines:
    """What coverage's collector writes to in place of its CoverageData:
    the lines of each file per context, as plain sets. The collector calls
    set_context at each switch_context (after flushing the tracer's data
    of the context before), add_lines (or add_arcs, should branch be on
    after all) with the tracer's data since, and add_file_tracers."""

    def __init__(self):
        self.by_context = {}  # context -> {file: set of lines}
        self.files = None
        self.context = NO_TEST

    def set_context(self, context):
        prev, self.context = self.context, context or NO_TEST
        self.files = None
        return prev

    def add_lines(self, line_data):
        files = self.files
        if files is None:
            files = self.files = self.by_context.setdefault(self.context, {})
        for path, lines in line_data.items():
            have = files.get(path)
            if have is None:
                files[path] = set(lines)
            else:
                have.update(lines)

    def add_arcs(self, arc_data):
        self.add_lines({path: {l for arc in arcs for l in arc if l > 0} for path, arcs in arc_data.items()})

    def add_file_tracers(self, file_tracers):
        pass


def get_option(cov, name):
    try:
        return cov.get_option(name)
    except Exception:
        return None


def function_body_lines(path):
    """The lines inside function bodies (the def line, its decorators and
    defaults run at import and are not in it). Only statements are walked,
    and no function body is entered: a function nested in one lies in its
    body. A file that is no Python source (a template a plugin measures)
    has every line in a body: its lines stay with the tests that ran them."""
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read(), path)
    except (OSError, SyntaxError, ValueError):
        return AllLines()
    lines = set()
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.body:
                lines.update(range(node.body[0].lineno, node.end_lineno + 1))
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(node, field, None) or ():
                if isinstance(child, ast.AST):
                    todo.append(child)
    return lines


class AllLines:
    def __contains__(self, line):
        return True


def spans_of(files):
    """{file: set of lines} as {file: [[start, end], ...]}, merged."""
    out = {}
    for path, lines in files.items():
        spans = []
        for line in sorted(l for l in lines if l > 0):  # an empty module's is line 0
            if spans and line == spans[-1][1] + 1:
                spans[-1][1] = line
            else:
                spans.append([line, line])
        if spans:
            out[path] = spans
    return out
