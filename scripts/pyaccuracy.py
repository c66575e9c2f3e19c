#!/usr/bin/env python3
"""pyaccuracy.py measures testdex's static Python listing against the
runner's own, exact names only: a leaf test counts as found only when a
static (non-dynamic) record has its very name; a test a dynamic record
merely stands for counts as missed (it is reported apart).

    scripts/pyaccuracy.py [--bin TESTDEX] [--show N] DIR...

Each DIR is a pytest project with its virtualenv in DIR/.venv (what
scripts/setup/fidelity.sh installs: ~/.cache/testdex-fidelity/acc-*), its
listing `pytest --collect-only -q`; or a copy of CPython's Lib/test, given
as cpython:DIR where DIR holds the `test` package (its listing is
`python3 -m test --list-cases` of the interpreter the copy came from).

For each project it prints collected, exact, extras (static records the
runner does not list), misses under a dynamic record and other misses,
precision (exact / static leaf records) and recall (exact / collected),
and the first N misses and extras.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy  # noqa: E402


def static_listing(binary, root):
    env = dict(os.environ, TESTDEX_CACHE_DIR=tempfile.mkdtemp())
    start = time.time()
    out = subprocess.run([binary, "list", "--json", "--no-cache", "-q", root],
                         capture_output=True, text=True, env=env, cwd=root)
    took = time.time() - start
    records = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    parents = {r["parent"] for r in records if r.get("parent")}
    leaves, dynamic = {}, []
    for r in records:
        if r.get("framework") not in ("pytest", "unittest"):
            continue  # another language's tests in the sdist (tomlkit's tests/toml-test is Go)
        if r.get("dynamic"):
            # A record stands for the tests under what it runs and under
            # its own scope: test.datetimetester.{load_tests:...} runs
            # test.test_datetime, whose tests unittest names
            # test.datetimetester.*.
            dynamic.append(r.get("run") or r["name"])
            scope = r["name"].split(".{", 1)[0].split("::{", 1)[0]
            if scope and scope != r["name"]:
                dynamic.append(scope)
        elif r["kind"] in ("test", "subtest", "doctest") and r["id"] not in parents:
            leaves[r["name"]] = r
    return leaves, dynamic, took


def pytest_listing(root):
    venv = os.path.join(root, ".venv")
    env = dict(os.environ, VIRTUAL_ENV=venv, PATH=os.path.join(venv, "bin") + os.pathsep + os.environ["PATH"])
    out = subprocess.run([os.path.join(venv, "bin", "python"), "-m", "pytest", "--collect-only", "-q",
                          "-p", "no:randomly", "-p", "no:cacheprovider"],
                         capture_output=True, text=True, env=env, cwd=root)
    names = []
    for line in out.stdout.splitlines():
        if "::" in line and not line.startswith(" "):
            names.append(line.strip())
    return names


def cpython_listing():
    out = subprocess.run([sys.executable, "-m", "test", "--list-cases"], capture_output=True, text=True,
                         cwd=tempfile.gettempdir())
    return [line.strip() for line in out.stdout.splitlines() if line.startswith("test.")]


def covered(name, dynamic):
    for d in dynamic:
        if name == d or name.startswith(d + ".") or name.startswith(d + "::") or name.startswith(d + "["):
            return True
    return False


def measure(binary, spec, show):
    if spec.startswith("cpython:"):
        root = os.path.abspath(spec[len("cpython:"):])
        runtime = cpython_listing()
    else:
        root = os.path.abspath(spec)
        runtime = pytest_listing(root)
    leaves, dynamic, took = static_listing(binary, root)
    accuracy.report(root, "", runtime, leaves, dynamic, covered, took, show)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="testdex")
    ap.add_argument("--show", type=int, default=20)
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    for d in args.dirs:
        measure(os.path.abspath(args.bin) if os.sep in args.bin else args.bin, d, args.show)


if __name__ == "__main__":
    main()
