#!/usr/bin/env python3
"""scripts/pycovlines.py compares each test's recorded lines between two Python coverage cores (docs/coverage.md#python).

    scripts/pycovlines.py [--bin BIN] [--before BIN] [--venv DIR] PROJECT ...

For each PROJECT, `testdex run --coverage` runs twice, each with a fresh
TESTDEX_CACHE_DIR: once with TESTDEX_PY_COVERAGE_CORE=ctrace (coverage.py's
C tracer, the recorder's core before Python 3.12) and once as testdex
chooses (sys.monitoring from Python 3.12); with --before BIN, the first
run is BIN's (an earlier build) with the core it chooses, so that a change
of the recorder is compared test for test. --venv names the virtualenv to
run with (VIRTUAL_ENV, as the runner reads it: a folder, where %s stands
for the project's folder name, or a name inside PROJECT). Then `testdex covering FILE --json` of every .py file under
PROJECT (dependency and hidden folders left out) reads back, per test and
file, the lines each run recorded, and the script prints, a project a
line: the tests, the (test, file) pairs, the lines recorded by each run,
and the pairs where the second run misses a line the first has (a defect:
the script exits 1 and prints the first few) or has more (imprecision).
Builds ./cmd/testdex (CGO_ENABLED=1) unless --bin is given. Not part of
`go test`.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP = {"node_modules", "site-packages", "__pycache__", "build", "dist"}


def py_files(project):
    for dirpath, dirs, files in os.walk(project):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in SKIP and not d.startswith("venv")]
        for f in files:
            if f.endswith(".py"):
                yield os.path.relpath(os.path.join(dirpath, f), project)


def record(bin_, project, env):
    """{(test id, file): set of lines} of one `run --coverage`."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(env, TESTDEX_CACHE_DIR=cache, NO_COLOR="1")
        p = subprocess.run([bin_, "run", "--coverage"], cwd=project, env=env, capture_output=True, text=True)
        if "coverage of" not in p.stderr:
            sys.exit("%s: run --coverage recorded nothing:\n%s" % (project, p.stderr[-2000:]))
        out = {}
        for path in py_files(project):
            q = subprocess.run([bin_, "covering", path, "--json"], cwd=project, env=env, capture_output=True, text=True)
            if q.returncode not in (0, 2) or not q.stdout.strip():
                continue
            for t in json.loads(q.stdout).get("tests") or ():
                lines = set()
                for s in t.get("lines") or ():
                    lines.update(range(s["start"], s["end"] + 1) if isinstance(s, dict) else [s])
                out[(t["id"], path)] = lines
        return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin")
    ap.add_argument("--before", help="an earlier testdex binary: the first run is its, with its default core")
    ap.add_argument("--venv")
    ap.add_argument("projects", nargs="+")
    a = ap.parse_args()
    bin_ = a.bin
    if not bin_:
        bin_ = os.path.join(tempfile.mkdtemp(), "testdex")
        subprocess.run(["go", "build", "-o", bin_, "./cmd/testdex"], cwd=REPO, check=True,
                       env=dict(os.environ, CGO_ENABLED="1"))
    first = "before" if a.before else "ctrace"
    print("| project | tests | test-file pairs | lines (%s) | lines (default core) | pairs missing lines | pairs with more |" % first)
    print("| --- | --: | --: | --: | --: | --: | --: |")
    status = 0
    for project in a.projects:
        env = dict(os.environ)
        if a.venv:
            venv = a.venv.replace("%s", os.path.basename(project.rstrip("/")))
            env["VIRTUAL_ENV"] = venv if os.path.isabs(venv) else os.path.join(project, venv)
        if a.before:
            old = record(a.before, project, env)
        else:
            old = record(bin_, project, dict(env, TESTDEX_PY_COVERAGE_CORE="ctrace"))
        new = record(bin_, project, env)
        missing, more = [], []
        for key in set(old) | set(new):
            o, n = old.get(key, set()), new.get(key, set())
            if o - n:
                missing.append((key, sorted(o - n)))
            if n - o:
                more.append((key, sorted(n - o)))
        print("| %s | %d | %d | %d | %d | %d | %d |" % (
            os.path.basename(project.rstrip("/")), len({k[0] for k in old}), len(old),
            sum(map(len, old.values())), sum(map(len, new.values())), len(missing), len(more)))
        for key, lines in sorted(missing)[:5]:
            print("  missing %s %s: %s" % (key[0], key[1], lines[:20]), file=sys.stderr)
        for key, lines in sorted(more)[:5]:
            print("  more %s %s: %s" % (key[0], key[1], lines[:20]), file=sys.stderr)
        status |= 1 if missing else 0
        sys.stdout.flush()
    return status


if __name__ == "__main__":
    sys.exit(main())
