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

After the run the data file is saved and read back through coverage's own
API (CoverageData.measured_files and contexts_by_lineno, no SQL of ours),
and one "covered" event per test goes to the driver's event channel.

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
  data_file     none while the tests run (in memory), then the batch's
                scratch file (never the project's .coverage);
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
from coverage import CoverageData

NO_TEST = ""  # the context of everything that runs outside a test
FIXTURE = "testdex-fixture:"


class Recorder:
    """Starts coverage with the overrides above and switches contexts."""

    def __init__(self, data_file, emit):
        self.emit = emit
        self.data_file = data_file
        self.tests = {}  # context -> the event's naming fields, in run order
        self.fixtures = {}  # fixture context -> set of test contexts
        self.current = NO_TEST
        self.disabled = ""
        # The data stays in memory while the tests run (each context switch
        # writes to it: 3x cheaper than to a file) and is written to
        # data_file once, at the end.
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
        self.cov.start()

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
        """Stops coverage, saves the data and reports it. An error reading
        it is the run's output, never the run's failure."""
        self.cov.stop()
        if self.disabled:
            return
        try:
            data = self.cov.get_data()
            if os.path.exists(self.data_file):
                os.remove(self.data_file)
            saved = CoverageData(basename=self.data_file)
            saved.loads(data.dumps())  # for a person to look at with coverage's tools
            self.report(data)
        except Exception as e:  # the results stand without coverage
            self.emit(action="covered", nodeid="", message="reading coverage.py's data failed: %r" % (e,))

    def report(self, data):
        """Sends the shared lines, then each test's (see the doc string)."""
        owners = {}  # context -> the tests its lines go to
        for ctx in data.measured_contexts():
            if ctx in self.tests:
                owners[ctx] = (ctx,)
            elif ctx.startswith(FIXTURE) and self.fixtures.get(ctx):
                owners[ctx] = tuple(self.fixtures[ctx])
        shared = {}
        per_test = {ctx: {} for ctx in self.tests}
        for path in sorted(data.measured_files()):
            body = function_body_lines(path)
            for line, contexts in data.contexts_by_lineno(path).items():
                # Lines of a context no test owns (a fixture whose users
                # pytest did not say) are everyone's, as NO_TEST's.
                if line not in body or NO_TEST in contexts or any(c not in owners for c in contexts):
                    shared.setdefault(path, set()).add(line)
                    continue
                for ctx in contexts:
                    for test in owners.get(ctx, ()):
                        lines = per_test[test].get(path)
                        if lines is None:
                            lines = per_test[test][path] = set()
                        lines.add(line)
        self.emit(action="covered", nodeid="", files=spans_of(shared))
        for ctx, names in self.tests.items():
            self.emit(action="covered", files=spans_of(per_test[ctx]), **names)


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
