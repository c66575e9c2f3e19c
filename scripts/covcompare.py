#!/usr/bin/env python3
"""scripts/covcompare.py checks that two coverage indexes answer alike (docs/coverage.md, the index).

    scripts/covcompare.py DIR A_BIN A_CACHE B_BIN B_CACHE [--lines 200] [--changes 8] [--seed 7]

DIR is a project both testdexes recorded (`TESTDEX_CACHE_DIR=A_CACHE A_BIN
run --coverage` and the same for B: an older build and this one, whose
index formats differ). Asks each, with its own cache folder:

- `testdex coverage --json` (every recorded file, per test its lines);
- `testdex covering FILE:LINE --json` of --lines lines drawn at random
  (SEED) from the recorded files (executed or not), and `covering FILE`
  of every recorded file;
- `testdex affected --files FILE --json` after each of --changes seeded
  changes: a statement added at the top of a function's body (a line
  ending in `{` that opens a `function`, or a Python `def`), the file
  restored after, and `covering FILE` and `covering FILE:LINE` of the
  changed file (answered through its unchanged functions, or stale).

The answers are compared with the recording times left out (the runs
recorded at different times). Prints the count of queries and each
difference; exits 1 when any. The recorded files are A's report's.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys


def ask(bin_, cache, cwd, args):
    env = dict(os.environ, TESTDEX_CACHE_DIR=cache, NO_COLOR="1")
    p = subprocess.run([bin_] + args, cwd=cwd, env=env, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def covering(out):
    """The answer without recording times, tests sorted."""
    try:
        a = json.loads(out)
    except ValueError:
        return out
    for k in ("tests", "stale"):
        for t in a.get(k) or []:
            t.pop("recorded", None)
        a[k] = sorted(a.get(k) or [], key=lambda t: t["id"])
    return a


def affected(out):
    ids = []
    for line in out.splitlines():
        try:
            ids.append(json.loads(line).get("id"))
        except ValueError:
            pass
    return sorted(i for i in ids if i)


def report(bin_, cache, cwd):
    """`testdex coverage --json`'s file objects, by path."""
    _, out, _ = ask(bin_, cache, cwd, ["coverage", "--json"])
    files = {}
    for line in out.splitlines():
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if isinstance(o, dict) and o.get("path"):
            files[o["path"]] = o
    return files


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("a_bin")
    ap.add_argument("a_cache")
    ap.add_argument("b_bin")
    ap.add_argument("b_cache")
    ap.add_argument("--lines", type=int, default=200)
    ap.add_argument("--changes", type=int, default=8)
    ap.add_argument("--seed", type=int, default=7)
    o = ap.parse_args()
    a, b = (o.a_bin, o.a_cache), (o.b_bin, o.b_cache)
    rep_a, rep_b = report(*a, o.dir), report(*b, o.dir)
    files = [(p, f.get("lines") or 0) for p, f in sorted(rep_a.items()) if f.get("state") != "unrecorded"]
    if not files:
        sys.exit("covcompare: no recorded files in A's index")
    rdiffs = [p for p in sorted(set(rep_a) | set(rep_b)) if rep_a.get(p) != rep_b.get(p)]
    for p in rdiffs:
        print("coverage --json differs for %s" % p)
    print("coverage --json: %d files, %d test-and-file rows in A, %d differ" % (
        len(rep_a), sum(len(f.get("tests") or []) for f in rep_a.values()), len(rdiffs)))
    rng = random.Random(o.seed)
    queries = [[f] for f, _ in files]
    for _ in range(o.lines):
        f, n = rng.choice(files)
        queries.append(["%s:%d" % (f, rng.randint(1, max(n, 1)))])
    diffs = 0
    hits = 0
    for q in queries:
        ra, oa, ea = ask(*a, o.dir, ["covering", "--json"] + q)
        rb, ob, eb = ask(*b, o.dir, ["covering", "--json"] + q)
        ca, cb = covering(oa), covering(ob)
        hits += len(ca.get("tests", [])) if isinstance(ca, dict) else 0
        if ra != rb or ca != cb:
            diffs += 1
            print("covering %s differs: exit %d/%d\n  A %s %s\n  B %s %s" % (q[0], ra, rb, str(ca)[:300], ea[:200], str(cb)[:300], eb[:200]))
    print("covering: %d queries (%d files whole, %d lines), %d test hits in A, %d differ" % (len(queries), len(files), o.lines, hits, diffs))
    changes, adiffs, selected, changed = 0, 0, 0, 0
    cands = []
    for f, _ in files:
        path = os.path.join(o.dir, f)
        try:
            text = open(path).read().split("\n")
        except OSError:
            continue
        for i, l in enumerate(text):
            if (f.endswith(".py") and re.match(r"^\s*def .*:\s*$", l)) or (
                    not f.endswith(".py") and re.search(r"\bfunction\b.*\{\s*$", l)):
                cands.append((f, i))
    rng.shuffle(cands)
    for f, i in cands[:o.changes]:
        path = os.path.join(o.dir, f)
        orig = open(path).read()
        lines = orig.split("\n")
        indent = re.match(r"\s*", lines[i + 1] if i + 1 < len(lines) else "").group(0) or "    "
        stmt = "pass" if f.endswith(".py") else "void 0;"
        if f.endswith(".py"):
            indent = re.match(r"\s*", lines[i]).group(0) + "    "
        lines.insert(i + 1, indent + stmt)
        try:
            open(path, "w").write("\n".join(lines))
            _, oa, _ = ask(*a, o.dir, ["affected", "--json", "--files", f])
            _, ob, _ = ask(*b, o.dir, ["affected", "--json", "--files", f])
            for q in (f, "%s:%d" % (f, i + 3)):  # the changed file: through its functions, or stale
                ra, ca, _ = ask(*a, o.dir, ["covering", "--json", q])
                rb, cb, _ = ask(*b, o.dir, ["covering", "--json", q])
                changed += 1
                if ra != rb or covering(ca) != covering(cb):
                    diffs += 1
                    print("covering %s (changed) differs: exit %d/%d" % (q, ra, rb))
        finally:
            open(path, "w").write(orig)
        sa, sb = affected(oa), affected(ob)
        changes += 1
        selected += len(sa)
        if sa != sb:
            adiffs += 1
            print("affected %s:%d differs: A %d tests, B %d; only A %s; only B %s" % (
                f, i + 1, len(sa), len(sb), sorted(set(sa) - set(sb))[:5], sorted(set(sb) - set(sa))[:5]))
        else:
            print("affected %s:%d: %d tests, equal" % (f, i + 1, len(sa)))
    print("affected: %d seeded changes, %d tests selected in A, %d differ; covering of the changed files: %d queries, %d differ in all" % (
        changes, selected, adiffs, changed, diffs))
    sys.exit(1 if diffs or adiffs or rdiffs else 0)


if __name__ == "__main__":
    main()
