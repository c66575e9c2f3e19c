#!/usr/bin/env python3
"""Selection sizes of Go's two coverage paths (docs/coverage.md, ### Go).

Usage:
  TESTDEX=/path/to/testdex [TESTDEX_WIDE=/path/to/older/testdex] \
    scripts/covselbench.py DIR [SEED [N]]

Copies the Go module DIR to a temporary folder, records coverage there
twice, each into its own TESTDEX_CACHE_DIR (a process per test:
TESTDEX_GO_COVERAGE=process; one process per package: the default), then
draws N functions (default 15) at random (SEED, default 7) from the
module's non-test files (not testdata, cmd or benchmark), gives each one
statement (`_ = 0` after its opening line), and asks `testdex affected
--files FILE --json` of each index and with --no-coverage, restoring the
file after. Prints, per function, the results selected by each, and the
shared path's split: by the test's own record + through an earlier test
of its process. The shared path's earlier-test rule is narrowed by the
static reference graph (changes/covered_reach.go); with TESTDEX_WIDE, a
testdex built before that narrowing (commit 3b8c5ca), the same shared
index is also asked with it, for the wide rule's figure.
"""
import json, os, random, re, shutil, subprocess, sys, tempfile

def main():
    src = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    td = os.environ.get("TESTDEX", "testdex")
    wide = os.environ.get("TESTDEX_WIDE")
    tmp = tempfile.mkdtemp()
    root = os.path.join(tmp, "mod")
    shutil.copytree(src, root, symlinks=True)
    caches = {"process": os.path.join(tmp, "process"), "shared": os.path.join(tmp, "shared")}
    for name, cache in caches.items():
        env = dict(os.environ, TESTDEX_CACHE_DIR=cache)
        env["TESTDEX_GO_COVERAGE"] = name
        subprocess.run([td, "run", "--coverage"], cwd=root, env=env, capture_output=True)
    funcs = []
    for d, dirs, fs in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith(".") and x not in ("testdata", "cmd", "benchmark"))
        for f in sorted(fs):
            if not f.endswith(".go") or f.endswith("_test.go"):
                continue
            path = os.path.join(d, f)
            lines = open(path).read().split("\n")
            for i, l in enumerate(lines):
                if re.match(r"^func .*\{$", l) and i + 1 < len(lines) and lines[i + 1].strip() != "}":
                    funcs.append((path, i, l))
    random.seed(seed)
    tot = {"process": 0, "shared": 0, "earlier": 0, "wide": 0, "static": 0}
    print("function\tprocess per test\tshared (own+earlier)\twide\tstatic")
    for path, i, l in random.sample(funcs, min(n, len(funcs))):
        text = open(path).read()
        lines = text.split("\n")
        lines.insert(i + 1, "\t_ = 0")
        open(path, "w").write("\n".join(lines))
        rel = os.path.relpath(path, root)
        try:
            p, _ = count(td, root, caches["process"], rel, False)
            s, e = count(td, root, caches["shared"], rel, False)
            st, _ = count(td, root, caches["shared"], rel, True)
            w = count(wide, root, caches["shared"], rel, False)[0] if wide else 0
        finally:
            open(path, "w").write(text)
        name = re.match(r"^func (\([^)]*\) )?(\w+)", l).group(2)
        print(f"{rel}:{name}\t{p}\t{s} ({s - e}+{e})\t{w}\t{st}")
        for k, v in (("process", p), ("shared", s), ("earlier", e), ("wide", w), ("static", st)):
            tot[k] += v
    print("total", tot)
    shutil.rmtree(tmp)

def count(td, root, cache, rel, static):
    args = [td, "affected", "--files", rel, "--json"] + (["--no-coverage"] if static else [])
    out = subprocess.run(args, cwd=root, env=dict(os.environ, TESTDEX_CACHE_DIR=cache), capture_output=True, text=True).stdout
    n = earlier = 0
    for line in out.splitlines():
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if "id" in r:
            n += 1
            earlier += bool(r.get("reason_detail", {}).get("earlier"))
    return n, earlier

if __name__ == "__main__":
    main()
