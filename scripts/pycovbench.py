#!/usr/bin/env python3
"""scripts/pycovbench.py measures what `testdex run --coverage` costs against a plain `testdex run` (docs/coverage.md#python).

    scripts/pycovbench.py [--runs 3] [--bin BIN] [--before BIN] [--before-env VAR=VALUE] [--venv DIR] [PROJECT ...]

Each PROJECT is a folder (default: itsdangerous and pyasn1 under
~/.cache/testdex-fidelity, which scripts/setup/fidelity.sh fills, with
coverage in their virtualenvs). For each, `testdex run` and `testdex run
--coverage` run --runs times each, alternated (plain, coverage, plain,
...) so that a change of the machine's load hits both alike, each with a
fresh TESTDEX_CACHE_DIR. Prints a table a project a line: the medians of
wall time and of CPU time (user + system of testdex and its children),
their ratios, the results of each kind of run (they must be equal) and
the tests recorded. With --before, a third run alternates with them,
`--coverage` by that binary (an earlier build), and the table gets its
medians too. --before-env VAR=VALUE does the same with this build and
VAR set for the third run (TESTDEX_PY_COVERAGE_CORE=ctrace: coverage.py's
C tracer where Python 3.12 and later would take sys.monitoring). --warm
gives each kind of run its own TESTDEX_CACHE_DIR, kept through the
project's runs and filled by one run of each kind that is not measured
(what testdex compiles once into its cache, as Java's coverage
listener, then counts as it does on a user's later runs). --venv runs every project with that virtualenv (VIRTUAL_ENV,
as the runner reads it): a folder, where %s stands for the project's
folder name, or, when relative, a name inside each PROJECT (another
interpreter than the project's .venv). A run whose results differ from the plain run's is
reported, and the script exits 1. Builds ./cmd/testdex (CGO_ENABLED=1)
unless --bin is given. Not part of `go test`; any framework's project
works, the Python ones are the default.
"""
import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIDELITY = os.path.expanduser("~/.cache/testdex-fidelity")


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def venv_dir(venv, project):
    """--venv's folder for project."""
    venv = venv.replace("%s", os.path.basename(project.rstrip("/")))
    return venv if os.path.isabs(venv) else os.path.join(project, venv)


def run(bin_, project, coverage, before=None, venv=None, extra=None, cache=None):
    """One run: (wall s, cpu s, {test id: action}, tests recorded); cache is the TESTDEX_CACHE_DIR to keep, else a fresh one."""
    with tempfile.TemporaryDirectory() as fresh:
        cache = cache or fresh
        env = dict(os.environ, TESTDEX_CACHE_DIR=cache, NO_COLOR="1", **(extra or {}))
        if venv:
            env["VIRTUAL_ENV"] = venv_dir(venv, project)
        args = [before or bin_, "run", "--json"] + (["--coverage"] if coverage else [])
        cpu0, t0 = children_cpu(), time.monotonic()
        p = subprocess.run(args, cwd=project, env=env, capture_output=True, text=True)
        wall, cpu = time.monotonic() - t0, children_cpu() - cpu0
    results = {}
    for line in p.stdout.splitlines():
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        if ev.get("action") in ("pass", "fail", "skip") and ev.get("id"):
            results[ev["id"]] = ev["action"]
    m = re.search(r"coverage of (\d+) tests recorded", p.stderr)
    return wall, cpu, results, int(m.group(1)) if m else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--bin")
    ap.add_argument("--before", help="an earlier testdex binary whose --coverage runs alternate with the others")
    ap.add_argument("--before-env", help="VAR=VALUE: the third run is this build's --coverage with VAR set")
    ap.add_argument("--warm", action="store_true", help="one cache folder per kind of run, filled by a run not measured")
    ap.add_argument("--venv", help="the virtualenv to run with (VIRTUAL_ENV): a folder, or a name inside each project")
    ap.add_argument("projects", nargs="*", default=[os.path.join(FIDELITY, n) for n in ("itsdangerous", "pyasn1")])
    a = ap.parse_args()
    bin_ = a.bin
    if not bin_:
        bin_ = os.path.join(tempfile.mkdtemp(), "testdex")
        subprocess.run(["go", "build", "-o", bin_, "./cmd/testdex"], cwd=REPO, check=True,
                       env=dict(os.environ, CGO_ENABLED="1"))
    before_env = dict([a.before_env.split("=", 1)]) if a.before_env else None
    if before_env:
        a.before = a.before or bin_
    extra = " before wall | before CPU |" if a.before else ""
    print("| project | results | plain wall | --coverage wall | ratio | plain CPU | --coverage CPU | ratio | recorded |" + extra)
    print("| --- | --: | --: | --: | --: | --: | --: | --: | --: |" + (" --: | --: |" if a.before else ""))
    status = 0
    for project in a.projects:
        plain, cov, before = [], [], []
        caches = [tempfile.mkdtemp() if a.warm else None for _ in range(3)]
        for i in range(a.runs + (1 if a.warm else 0)):
            p = run(bin_, project, False, venv=a.venv, cache=caches[0])
            c = run(bin_, project, True, venv=a.venv, cache=caches[1])
            b = run(bin_, project, True, a.before, venv=a.venv, extra=before_env, cache=caches[2]) if a.before else None
            if a.warm and i == 0:
                continue
            plain.append(p)
            cov.append(c)
            if b:
                before.append(b)
        want = plain[0][2]
        for r in plain[1:] + cov + before:
            if r[2] != want:
                diff = sorted(k for k in set(want) | set(r[2]) if want.get(k) != r[2].get(k))
                print("%s: results differ from the first plain run's: %s" % (project, diff[:5]), file=sys.stderr)
                status = 1
        med = lambda rs, i: statistics.median(r[i] for r in rs)
        pw, cw, pc, cc = med(plain, 0), med(cov, 0), med(plain, 1), med(cov, 1)
        row = "| %s | %d | %.2f s | %.2f s | x%.2f | %.2f s | %.2f s | x%.2f | %d |" % (
            os.path.basename(project.rstrip("/")), len(want), pw, cw, cw / pw, pc, cc, cc / pc, min(r[3] for r in cov))
        if before:
            bw, bc = med(before, 0), med(before, 1)
            row += " %.2f s (x%.2f) | %.2f s (x%.2f) |" % (bw, bw / pw, bc, bc / pc)
        print(row)
        sys.stdout.flush()
    return status


if __name__ == "__main__":
    sys.exit(main())
