#!/usr/bin/env python3
"""jsaccuracy.py measures testdex's static JavaScript and TypeScript listing
against the runner's own, exact names only: a leaf test counts as found only
when a static (non-dynamic) record has its very scope and name; a test a
dynamic record merely stands for counts as missed (it is reported apart).

    scripts/jsaccuracy.py [--bin TESTDEX] [--show N] DIR...

Each DIR is a project with its framework installed in DIR/node_modules. The
truth is the runner's own listing, run with the project's own configuration:

- vitest: `vitest list --json` (with `--typecheck` when the package.json
  test script passes it, as the project's own run does);
- jest: `jest --json --outputFile` (Jest has no listing of test names: the
  tests run, coverage off), each assertion's ancestorTitles and title;
- mocha: the mocha command of the package.json test script (its spec,
  --require, --recursive ...), given --dry-run (mocha >= 9) and a reporter
  that records every test's titlePath() and file.

Names are titles joined by " > ", scoped by the file relative to DIR, as
testdex names them. For each project it prints collected, exact, extras
(static leaf records the runner does not list), misses under a dynamic
record and other misses, precision (exact / static leaf records) and recall
(exact / collected), and the first N misses and extras.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy  # noqa: E402

MOCHA_REPORTER = r"""
const fs = require('fs');
module.exports = class Recorder {
  constructor(runner) {
    runner.once('end', () => {
      const out = [];
      const walk = (s) => {
        for (const t of s.tests) out.push({ file: t.file || s.file || '', titles: t.titlePath() });
        for (const c of s.suites) walk(c);
      };
      walk(runner.suite);
      fs.writeFileSync(process.env.JSACC_OUT, JSON.stringify(out));
    });
  }
};
"""


def static_listing(binary, root):
    env = dict(os.environ, TESTDEX_CACHE_DIR=tempfile.mkdtemp())
    start = time.time()
    out = subprocess.run([binary, "list", "--json", "--no-cache", "-q", root],
                         capture_output=True, text=True, env=env, cwd=root)
    took = time.time() - start
    records = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    byid = {r["id"]: r for r in records}
    parents = {r["parent"] for r in records if r.get("parent")}
    leaves, dynamic = {}, []
    for r in records:
        if r.get("project", ".") != ".":
            continue  # a nested project (its own package.json) the root's runner does not run
        if r.get("dynamic"):
            parent = byid.get(r.get("parent") or "")
            dynamic.append((r["scope"], parent["name"] if parent else None))
        elif r["kind"] == "test" and r["id"] not in parents:
            leaves[r["scope"] + " :: " + r["name"]] = r
    return leaves, dynamic, took


def test_script(root):
    with open(os.path.join(root, "package.json")) as f:
        return json.load(f).get("scripts", {}).get("test", "")


def rel(root, file):
    return os.path.relpath(file, root) if os.path.isabs(file) else file


def vitest_listing(root):
    args = [os.path.join(root, "node_modules", ".bin", "vitest"), "list", "--json"]
    if "--typecheck" in test_script(root):
        args.append("--typecheck")
    out = subprocess.run(args, capture_output=True, text=True, cwd=root)
    start = out.stdout.find("[")
    tests, _ = json.JSONDecoder().raw_decode(out.stdout[start:])
    return [rel(root, t["file"]) + " :: " + t["name"] for t in tests]


def js_string(v):
    """js_string is String(v) for the JSON values an old Jest (jasmine2)
    reports as titles: it([2010, 6], fn) keeps its array, which Jest
    prints as String(title)."""
    if isinstance(v, list):
        return ",".join("" if e is None else js_string(e) for e in v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    return str(v)


def jest_listing(root):
    report = tempfile.mktemp(suffix=".json")
    subprocess.run([os.path.join(root, "node_modules", ".bin", "jest"), "--json", "--outputFile=" + report,
                    "--coverage=false", "--ci", "--silent"], capture_output=True, text=True, cwd=root)
    with open(report) as f:
        data = json.load(f)
    names = []
    for fr in data["testResults"]:
        for a in fr["assertionResults"]:
            names.append(rel(root, fr["name"]) + " :: " + " > ".join(js_string(t) for t in a["ancestorTitles"] + [a["title"]]))
    return names


def mocha_listing(root):
    script = test_script(root)
    m = re.search(r"(?:^|&&|\s)mocha\s([^&|;]*)", script)
    args = shlex.split(m.group(1)) if m else []
    keep, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in ("--reporter", "-R"):
            skip = True
        elif not a.startswith("--reporter="):
            keep.append(a)
    tmp = tempfile.mkdtemp()
    reporter = os.path.join(tmp, "recorder.js")
    with open(reporter, "w") as f:
        f.write(MOCHA_REPORTER)
    out = os.path.join(tmp, "out.json")
    env = dict(os.environ, JSACC_OUT=out)
    subprocess.run([os.path.join(root, "node_modules", ".bin", "mocha"), "--dry-run", "--reporter", reporter] + keep,
                   capture_output=True, text=True, cwd=root, env=env)
    with open(out) as f:
        return [rel(root, t["file"]) + " :: " + " > ".join(t["titles"]) for t in json.load(f)]


def runner_listing(root):
    bins = os.path.join(root, "node_modules", ".bin")
    script = test_script(root)
    for name, fn in (("vitest", vitest_listing), ("jest", jest_listing), ("mocha", mocha_listing)):
        if name in script and os.path.exists(os.path.join(bins, name)):
            return name, fn(root)
    for name, fn in (("vitest", vitest_listing), ("jest", jest_listing), ("mocha", mocha_listing)):
        if os.path.exists(os.path.join(bins, name)):
            return name, fn(root)
    raise SystemExit(f"{root}: no vitest, jest or mocha in node_modules/.bin")


def covered(key, dynamic):
    scope, name = key.split(" :: ", 1)
    for s, parent in dynamic:
        if s == scope and (parent is None or name.startswith(parent + " > ")):
            return True
    return False


def measure(binary, root, show):
    framework, runtime = runner_listing(root)
    leaves, dynamic, took = static_listing(binary, root)
    accuracy.report(root, f" ({framework})", runtime, leaves, dynamic, covered, took, show)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="testdex")
    ap.add_argument("--show", type=int, default=20)
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    for d in args.dirs:
        measure(os.path.abspath(args.bin) if os.sep in args.bin else args.bin, os.path.abspath(d), args.show)


if __name__ == "__main__":
    main()
