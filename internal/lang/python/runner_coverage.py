"""testdex's per-test coverage for its python drivers (runner_pytest.py and
runner_unittest.py load this file by path, under a private module name,
only when the run asks for coverage: without it nothing here is imported).

coverage.py's tracer (its C core) records the lines; testdex's recorder
cuts them into one set of lines per test, named exactly as the driver's
other events name the test (pytest's node ID with its parameters,
unittest's test id()), as the test starts and ends. coverage's own
`dynamic_context = test_function` is not used: it names the test function
only ("test_x", not "t.py::test_x[a-1]"), so parametrized rows and methods
of different classes would share one context, and it misses code a test
runs through fixtures outside the test function's frame.

At each switch the recorder moves what the tracer recorded since the last
one (Collector.data: a set of lines per file, which the C tracer adds to
in place) into the ending context's sets, and leaves the tracer's sets
empty. coverage's own switch_context does the same into its CoverageData
(SQLite), copying and clearing every file's set at each switch and reading
contexts back per line afterwards: on a suite of one-millisecond tests
that cost more than the tracer itself. The sets are emptied in place (the
tracer holds borrowed references to them) and only of the lines moved, so
a line another thread adds meanwhile stays for the next context rather
than being lost. A coverage version without these internals (Coverage.
_collector with data, a dict of sets of lines, and branch off) gets
coverage's own switch_context and its data read back through its API
(measured_files, contexts_by_lineno): slower, the same lines. No data file
is written. One "covered" event per test goes to the driver's event
channel.

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
  core          unless timid: sysmon from Python 3.12, ctrace before
                (and where the configuration names plugins or a
                concurrency library the sysmon core refuses, or
                TESTDEX_PY_COVERAGE_CORE=ctrace asks for it). coverage's
                sysmon core switches a line's event off after its first
                (sys.monitoring.DISABLE), so alone it would report a line
                once per process, not once per test: the recorder's Rearm
                takes over its callbacks and, at each cut, turns the
                lines on again in the code objects that reported one
                since the last cut, so each test's first run of a line
                is reported. A test then costs one event per distinct
                line it runs in the measured files and two
                set_local_events per code object it ran lines of, where
                ctrace's sys.settrace calls it for every line of every
                frame. Where Rearm cannot take over (a coverage version
                without the attributes it reads, no second tool id free,
                TESTDEX_PY_COVERAGE_REARM=0), coverage's callbacks stay
                and sys.monitoring.restart_events() at each cut turns
                every disabled event on again;
  patch         none: child processes are not measured (their lines
                could not be attributed to a test anyway);
  concurrency   kept, without multiprocessing (its children write data
                files of their own, never combined here).
Code outside the working folder (site-packages) is not measured unless the
project's `source` names it.
"""
import ast
import gc
import os
import sys
import types

import coverage

NO_TEST = ""  # the context of everything that runs outside a test
FIXTURE = "testdex-fixture:"


class Recorder:
    """Starts coverage with the overrides above and cuts its data per test."""

    def __init__(self, emit):
        self.emit = emit
        self.tests = {}  # context -> the event's naming fields, in run order
        self.fixtures = {}  # fixture context -> set of test contexts
        self.current = NO_TEST
        self.disabled = ""
        self.traced = None  # the collector's {file: set of lines}, when read directly
        self.restart = None  # sys.monitoring.restart_events, under coverage's sysmon core
        self.by_context = {}  # context -> {file: set of lines}, when read directly
        self.monitor = None  # the Rearm that took over coverage's sysmon core
        self.cuts = {}  # context -> [the monitor's cuts], under it
        cov = coverage.Coverage(data_file=None, config_file=True, auto_data=False)
        source = [os.getcwd()] + list(cov.get_option("run:source") or []) + list(get_option(cov, "run:source_pkgs") or [])
        options = {
            "run:source": source, "run:source_pkgs": [], "run:source_dirs": [], "run:include": [], "run:omit": [],
            "run:dynamic_context": None, "run:context": None, "run:parallel": False, "run:relative_files": False,
            "run:branch": False, "run:patch": [],
            "run:concurrency": [c for c in cov.get_option("run:concurrency") or [] if c != "multiprocessing"],
            "run:disable_warnings": list(cov.get_option("run:disable_warnings") or []) + [
                "module-not-imported", "no-data-collected", "module-not-measured", "no-ctracer", "no-sysmon"],
        }
        if not cov.get_option("run:timid"):
            options["run:core"] = core(cov)
        for name, value in options.items():
            try:
                cov.set_option(name, value)
            except Exception:  # an option this coverage version does not have
                pass
        self.cov = cov

    def start(self):
        """Starts coverage; reads its collector's data directly when this
        coverage version has the internals that takes (see the doc string)."""
        self.cov.start()
        collector = getattr(self.cov, "_collector", None)
        data = getattr(collector, "data", None)
        if isinstance(data, dict) and getattr(collector, "branch", True) is False:
            self.traced = data
        tracers = getattr(collector, "tracers", None) or ()
        for tracer in tracers:
            if type(tracer).__name__ == "SysMonitor":
                if os.environ.get("TESTDEX_PY_COVERAGE_REARM") != "0":
                    self.monitor = Rearm.take_over(tracer)
                if self.monitor is None:
                    self.restart = sys.monitoring.restart_events

    def disable(self, why):
        """Records nothing for the tests of this run, and says why once (a
        covered event without a test is a note: lang.ActionCovered)."""
        if not self.disabled:
            self.disabled = why
            self.emit(action="covered", nodeid="", message=why)

    def switch(self, context):
        """Switches to context; returns the previous one. Under sys.monitoring
        the events are restarted before the cut as well as after it: code
        that runs during the cut (a weakref callback that the cut's own
        allocations set off through the garbage collector, another thread)
        is then recorded, for one context or the other, even where an
        earlier test disabled its lines."""
        prev = self.current
        if self.monitor is not None:
            cuts = self.cuts.get(prev)
            if cuts is None:
                self.cuts[prev] = [self.monitor.cut()]
            else:
                cuts.append(self.monitor.cut())
            if context != NO_TEST:
                self.monitor.settle()
            self.current = context
            return prev
        if self.restart is not None:
            self.restart()
        if self.traced is not None:
            self.take()
        else:
            self.cov.switch_context(context)
        if self.restart is not None:
            self.restart()
        self.current = context
        return prev

    def take(self):
        """Moves the lines traced since the last switch to the current
        context. Each set is emptied of the lines taken only (C calls, each
        atomic under the GIL): a line another thread adds in between stays
        for the next context. Older coverage versions keep dicts of lines,
        emptied the same way."""
        files = self.by_context.get(self.current)
        if files is None:
            files = self.by_context[self.current] = {}
        try:
            items = list(self.traced.items())
        except RuntimeError:  # a thread's tracer added a file meanwhile
            items = list(self.traced.copy().items())
        for path, lines in items:
            if lines:
                if type(lines) is set:
                    taken = lines.copy()
                    lines.difference_update(taken)
                else:  # older coverage versions keep {line: None}
                    taken = set(lines)
                    for line in taken:
                        del lines[line]
                have = files.get(path)
                if have is None:
                    files[path] = taken
                else:
                    have.update(taken)

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
        if self.monitor is not None:
            self.switch(NO_TEST)
            self.monitor.stop()
        self.cov.stop()
        if self.disabled:
            return
        # The report makes sets and dicts by the ten thousand and no
        # cycles: the garbage collector's passes over them (0.06 s on
        # jinja2) would find nothing to free.
        collecting = gc.isenabled()
        gc.disable()
        try:
            by_context = self.cov_lines()
            self.report(by_context)
        except Exception as e:  # the results stand without coverage
            self.emit(action="covered", nodeid="", message="reading coverage.py's data failed: %r" % (e,))
        finally:
            if collecting:
                gc.enable()

    def cov_lines(self):
        """{context: {file: set of lines}} of the whole run, the files
        named as coverage names them in its data."""
        if self.traced is None:
            by_context = {}
            data = self.cov.get_data()
            for path in data.measured_files():
                for line, contexts in (data.contexts_by_lineno(path) or {}).items():
                    for ctx in contexts:
                        by_context.setdefault(ctx or NO_TEST, {}).setdefault(path, set()).add(line)
            return by_context
        if self.monitor is not None:
            self.by_context = self.monitor.files(self.cuts)
        else:
            self.take()
        collector = self.cov._collector
        mapper = getattr(collector, "cached_mapped_file", None) or getattr(collector, "file_mapper", None) or (lambda p: p)
        names = {}
        out = {}
        for ctx, files in self.by_context.items():
            mine = out[ctx] = {}
            for path, lines in files.items():
                name = names.get(path)
                if name is None:
                    name = names[path] = mapper(path)
                have = mine.get(name)
                if have is None:
                    mine[name] = lines
                else:
                    have.update(lines)
        return out

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
        owned = [files for ctx, files in by_context.items() if ctx in owners]
        outside = outside_functions({path for files in owned for path in files})
        for files in owned:
            for path, lines in files.items():
                lines = outside[path](lines - shared[path] if path in shared else lines)
                if lines:
                    shared.setdefault(path, set()).update(lines)
        per_test = {ctx: {} for ctx in self.tests}
        for ctx, files in by_context.items():
            for test in owners.get(ctx, ()):
                mine = per_test[test]
                for path, lines in files.items():
                    lines = lines - shared[path] if path in shared else lines
                    if lines:
                        mine.setdefault(path, set()).update(lines)
        self.emit(action="covered", nodeid="", files=lines_of(shared))
        for ctx, names in self.tests.items():
            self.emit(action="covered", files=lines_of(per_test[ctx]), **names)


class Rearm:
    """Rearm records lines through sys.monitoring in place of coverage's
    sysmon core, whose file decisions (should_trace) it keeps: a LINE
    event of a measured code object adds the line to the current cut's
    {id(code): set of lines} and is switched off (DISABLE) for that tool.
    At each cut the code objects that reported a line since the last cut
    are armed again, and only those: each is armed on the second of two
    tool ids before it is disarmed on the first (or the other way round),
    so no line goes unreported while it changes over. restart_events()
    would turn every disabled event of the interpreter on again (coverage's
    PY_START in every function of pytest and the standard library), and
    every code object run after it would be instrumented again.

    A callback that finds the cut changed under it (another thread cut
    meanwhile) adds to the cut it read and to the next one, and does not
    disable its line, so the line is reported again in the next cut: a
    line is never switched off without its code object being among those
    the next cut arms.

    The cuts keep each code object's lines as a tuple, not the set the
    callbacks added to: the garbage collector stops tracking a tuple of
    ints at its first pass, where it walks every set at every full pass
    (jinja2's 109,519 sets until the report: 0.12 s of collection). The
    tuples are made as a test starts (settle), never as one ends: the
    allocations can set the collector off, and code it runs (a weakref
    callback) is recorded for the context that follows the cut, which
    after a test's end is every test's (jinja2's loaders.py:650 went to
    900 tests so)."""

    def __init__(self, tools, should_trace, cache):
        self.tools = tools
        self.armed = {}  # id(code) -> the tool whose LINE events it has
        # id(code) -> (code, coverage's name of its file), of the measured
        # code objects, kept alive so that their ids stay theirs. The
        # others are not kept: their PY_START is disabled once decided,
        # and decided again (from the cache) only if someone restarts it.
        self.codes = {}
        mon = sys.monitoring
        events = mon.events
        set_local = mon.set_local_events
        DISABLE = mon.DISABLE
        first = tools[0]
        armed, codes = self.armed, self.codes
        cur = {}

        def py_start(code, offset):
            key = id(code)
            if key in codes or code.co_name == "__annotate__":
                return DISABLE
            filename = code.co_filename
            disp = cache.get(filename)
            if disp is None:
                disp = cache[filename] = should_trace(filename, sys._getframe(1))
            if disp.trace:
                codes[key] = (code, disp.source_filename)
                armed[key] = first
                set_local(first, code, events.LINE)
            return DISABLE

        def line(code, lineno):
            mine = cur
            lines = mine.get(id(code))
            if lines is None:
                lines = mine.setdefault(id(code), set())
            lines.add(lineno)
            if mine is cur:
                return DISABLE
            # A cut came in between: a test's start may have made its
            # tuple of the set before the add (settle); the line goes to
            # the next cut as well.
            now = cur
            lines = now.get(id(code))
            if lines is None:
                lines = now.setdefault(id(code), set())
            lines.add(lineno)

        pending = []  # the cuts whose sets are not tuples yet

        def cut():
            nonlocal cur
            taken, cur = cur, {}
            a, b = tools
            for key in list(taken):
                was = armed[key]
                to = b if was == a else a
                code = codes[key][0]
                set_local(to, code, events.LINE)
                set_local(was, code, 0)
                armed[key] = to
            pending.append(taken)
            return taken

        def settle():
            for taken in pending:
                for key, lines in list(taken.items()):
                    taken[key] = tuple(lines)
            pending.clear()

        self.py_start, self.line, self.cut, self.settle = py_start, line, cut, settle

    @classmethod
    def take_over(cls, tracer):
        """Replaces the callbacks of coverage's started SysMonitor with a
        Rearm's, on its tool id and a second free one; None (coverage's
        core stays, restarted at each cut) where this coverage version
        lacks what is read here or no second tool id is free."""
        mon = sys.monitoring
        first = getattr(tracer, "myid", None)
        should_trace = getattr(tracer, "should_trace", None)
        cache = getattr(tracer, "should_trace_cache", None)
        if getattr(tracer, "trace_arcs", True) or not isinstance(first, int) or should_trace is None or not isinstance(cache, dict):
            return None
        if mon.get_tool(first) is None:
            return None
        second = None
        for tool in (3, 4, 2, 0, 5):
            if tool == first:
                continue
            try:
                mon.use_tool_id(tool, "testdex coverage")
            except ValueError:
                continue
            second = tool
            break
        if second is None:
            return None
        self = cls((first, second), should_trace, cache)
        mon.register_callback(first, mon.events.PY_START, self.py_start)
        for tool in self.tools:
            mon.register_callback(tool, mon.events.LINE, self.line)
        return self

    def stop(self):
        """Stops the events (coverage's stop frees the first tool id)."""
        mon = sys.monitoring
        first, second = self.tools
        for key, tool in list(self.armed.items()):
            mon.set_local_events(tool, self.codes[key][0], 0)
        mon.set_events(first, 0)
        mon.register_callback(first, mon.events.PY_START, None)
        for tool in self.tools:
            mon.register_callback(tool, mon.events.LINE, None)
        mon.free_tool_id(second)

    def files(self, cuts):
        """{context: {file: set of lines}} of {context: [cuts]}."""
        out = {}
        codes = self.codes
        for ctx, taken in cuts.items():
            files = out[ctx] = {}
            for one in taken:
                for key, lines in one.items():
                    name = codes[key][1]
                    have = files.get(name)
                    if have is None:
                        files[name] = set(lines)
                    else:
                        have.update(lines)
        return out


def core(cov):
    """The coverage core to record with: sysmon where sys.monitoring can
    cut per test (Python 3.12 and later; see the doc string), ctrace
    otherwise, and ctrace where the project's configuration asks for what
    coverage's sysmon core does not do (plugins, or a concurrency library
    it refuses)."""
    if sys.version_info < (3, 12) or os.environ.get("TESTDEX_PY_COVERAGE_CORE") == "ctrace":
        return "ctrace"
    if get_option(cov, "run:plugins"):
        return "ctrace"
    if any(c in ("greenlet", "eventlet", "gevent") for c in get_option(cov, "run:concurrency") or ()):
        return "ctrace"
    return "sysmon"


def get_option(cov, name):
    try:
        return cov.get_option(name)
    except Exception:
        return None


def outside_functions(paths):
    """{path: a function giving, of a set of lines of path, those outside
    every function body (function_body_lines)}, for each of paths. The
    lines of the functions the process can reach (function_lines) are
    inside, which leaves most files unparsed; the rest are looked up in
    the file's ast, read once when first needed."""
    live = function_lines(paths)
    return {path: Outside(path, live.get(path, set())) for path in paths}


class Outside:
    """Outside(lines): those of lines outside every function body of path,
    given the lines known inside (function_lines); the ast is read only
    for lines outside those, once."""

    def __init__(self, path, inside):
        self.path = path
        self.inside = inside
        self.body = False  # function_body_lines(path) once read

    def __call__(self, lines):
        rest = lines - self.inside
        if not rest:
            return rest
        if self.body is False:
            self.body = function_body_lines(self.path)
        return () if self.body is None else rest - self.body


def function_lines(paths):
    """{path: lines of its functions' bodies} for the modules of paths
    still in sys.modules, from the code objects of the functions, methods,
    properties, wrapped functions and nested code reachable from the
    module's namespace; no parsing. Each code object's lines but its
    co_firstlineno (a decorator's or the def's, run at import) lie in the
    function's body as function_body_lines has it: these never say a line
    is inside that the ast would not. A function that cannot be reached (a
    name bound twice, a decorator that returns no function, as pytest's
    fixtures) is left to the ast."""
    wanted = {}
    for path in paths:
        try:
            wanted[os.path.realpath(path)] = path
        except (OSError, ValueError):
            pass
    out = {}
    for name, mod in list(sys.modules.items()):
        f = getattr(mod, "__file__", None) if isinstance(mod, types.ModuleType) else None
        if not isinstance(f, str) or not f.endswith(".py"):
            continue
        path = wanted.get(os.path.realpath(f))
        if path is None or path in out:
            continue
        out[path] = module_function_lines(mod, name, f)
    return out


def module_function_lines(mod, name, filename):
    """The body lines of the functions reachable from mod's namespace and
    defined in filename (see function_lines)."""
    lines = set()
    seen = set()
    todo = list(vars(mod).values())
    while todo:
        o = todo.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        t = type(o)
        if t is types.FunctionType:
            code = o.__code__
            if code.co_filename == filename:
                code_lines(code, lines)
                lines.discard(code.co_firstlineno)
            wrapped = o.__dict__.get("__wrapped__")
            if wrapped is not None:
                todo.append(wrapped)
        elif t is staticmethod or t is classmethod:
            todo.append(o.__func__)
        elif t is property:
            todo.extend(f for f in (o.fget, o.fset, o.fdel) if f is not None)
        elif isinstance(o, type) and vars(o).get("__module__") == name:
            todo.extend(vars(o).values())
    return lines


def code_lines(code, lines):
    """Adds the lines of code and of the code objects it holds (nested
    functions, classes, lambdas and comprehensions) to lines."""
    todo = [code]
    while todo:
        c = todo.pop()
        if hasattr(c, "co_lines"):
            lines.update(l for _, _, l in c.co_lines() if l is not None)
        else:  # before Python 3.10
            import dis
            lines.update(l for _, l in dis.findlinestarts(c) if l is not None)
        todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))


def function_body_lines(path):
    """The lines inside function bodies (the def line, its decorators and
    defaults run at import and are not in it). Only statements are walked,
    and no function body is entered: a function nested in one lies in its
    body. None for a file that is no Python source (a template a plugin
    measures): its lines stay with the tests that ran them."""
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read(), path)
    except (OSError, SyntaxError, ValueError):
        return None
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


def lines_of(files):
    """{file: set of lines} as {file: "1,2,5"}: the lines from 1 up,
    sorted, in one string (sorted, str and join run in C, where cutting
    them into spans took a Python step a line: a tenth of a second on
    pyasn1's 1,179 tests)."""
    out = {}
    for path, lines in files.items():
        ordered = sorted(lines)
        if ordered and ordered[0] < 1:  # an empty module's is line 0
            ordered = [line for line in ordered if line > 0]
        if ordered:
            out[path] = ",".join(map(str, ordered))
    return out
