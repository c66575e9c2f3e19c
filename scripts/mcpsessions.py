#!/usr/bin/env python3
"""scripts/mcpsessions.py: scripted agent sessions over `testdex mcp`.

Each session plants a failing test in one of the fidelity suite's real
projects (scripts/setup/fidelity.sh installs them), then drives `testdex
mcp` over stdio as an agent would: run_tests {"scope": "all"} to find the
failure, fixes the planted test, and calls run_tests with the `rerun`
arguments the answer gave. It measures the bytes of testdex's answers (the
whole tools/call result: text and structured content) against the output
of the native runner an agent would read otherwise, for the same two runs:
the command a developer types for the whole suite, then for the planted
file, with the runner's default reporter (go test with -v: its per-test
lines; seed 004's run_tests returned the larger -json stream). It counts
bytes/4 as tokens, and checks that the rerun ran exactly the failed IDs
(read from testdex://runs/{id}/results; a runner that cannot select a row
alone runs its parent's rows, and the rerun's warnings say so) and that
they pass (a test the runner's filter left out, reported skipped, did not
run). The planted file is removed afterwards.

Usage: scripts/mcpsessions.py [--testdex BIN] [--only NAME] [--budget N]
Not part of `go test` (it runs 20 real suites, twice each, and their
native runners); docs/mcp.md holds its last table.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.environ.get("TESTDEX_FIDELITY_DIR", os.path.expanduser("~/.cache/testdex-fidelity"))
ODD = ["with spaces [1]", "pipe a|b", "ünï ✓ 名前"]


def go(pkg):
    def plant(variant, broken):
        b = "true" if broken else "false"
        if variant == "plain":
            return f'package {pkg}_test\n\nimport "testing"\n\nconst broken = {b}\n\nfunc TestPlanted(t *testing.T) {{\n\tif broken {{\n\t\tt.Errorf("planted: got %d, want 3", 2)\n\t}}\n}}\n'
        rows = ", ".join(json.dumps(r, ensure_ascii=False) for r in ODD)
        return (f'package {pkg}_test\n\nimport "testing"\n\nconst broken = {b}\n\nfunc TestPlantedRows(t *testing.T) {{\n'
                f'\tfor _, name := range []string{{{rows}, "ok"}} {{\n\t\tt.Run(name, func(t *testing.T) {{\n'
                f'\t\t\tif broken && name != "ok" {{\n\t\t\t\tt.Errorf("planted row %q", name)\n\t\t\t}}\n\t\t}})\n\t}}\n}}\n')
    return plant


def pytest_plant(variant, broken):
    b = "True" if broken else "False"
    if variant == "plain":
        return f"BROKEN = {b}\n\n\ndef test_planted():\n    assert not BROKEN, 'planted failure'\n"
    rows = ", ".join(json.dumps(r, ensure_ascii=False) for r in ODD)
    return f"import pytest\n\nBROKEN = {b}\n\n\n@pytest.mark.parametrize('name', [{rows}, 'ok'])\ndef test_planted_rows(name):\n    assert not (BROKEN and name != 'ok'), name\n"


def unittest_plant(variant, broken):
    b = "True" if broken else "False"
    name = "test_planted" if variant == "plain" else "test_planted_other"
    return f"import unittest\n\nBROKEN = {b}\n\n\nclass PlantedTest(unittest.TestCase):\n    def {name}(self):\n        self.assertFalse(BROKEN, 'planted failure')\n\n    def test_fine(self):\n        pass\n"


def js_plant(head, it="test"):
    def plant(variant, broken):
        b = "true" if broken else "false"
        if variant == "plain":
            return f"{head}const BROKEN = {b};\n\ndescribe('planted', () => {{\n  {it}('fails', () => {{\n    if (BROKEN) throw new Error('planted failure');\n  }});\n}});\n"
        body = "".join(f"  {it}({json.dumps(r, ensure_ascii=False)}, () => {{\n    if (BROKEN) throw new Error('planted row');\n  }});\n" for r in ODD)
        return f"{head}const BROKEN = {b};\n\ndescribe('odd [group] | ✓', () => {{\n{body}  {it}('ok', () => {{}});\n}});\n"
    return plant


def node_plant(variant, broken):
    b = "true" if broken else "false"
    head = "const { test } = require('node:test');\n"
    if variant == "plain":
        return f"{head}const BROKEN = {b};\n\ntest('planted', () => {{\n  if (BROKEN) throw new Error('planted failure');\n}});\n"
    body = "".join(f"  await t.test({json.dumps(r, ensure_ascii=False)}, () => {{\n    if (BROKEN) throw new Error('planted row');\n  }});\n" for r in ODD)
    return f"{head}const BROKEN = {b};\n\ntest('odd [group] | ✓', async (t) => {{\n{body}}});\n"


def rust_plant(variant, broken):
    b = "true" if broken else "false"
    if variant == "plain":
        return f"const BROKEN: bool = {b};\n\n#[test]\nfn planted() {{\n    assert!(!BROKEN, \"planted failure\");\n}}\n"
    return f"const BROKEN: bool = {b};\n\nmod odd {{\n    #[test]\n    fn planted_row() {{\n        assert!(!super::BROKEN, \"planted row\");\n    }}\n    #[test]\n    fn fine() {{}}\n}}\n"


# commons-cli's build runs Apache RAT before the tests: a file without this
# header fails the build (native `mvn test` as well) and no test runs.
APACHE_HEADER = ("/*\n * Licensed to the Apache Software Foundation (ASF) under one or more\n"
                 " * contributor license agreements.  See the NOTICE file distributed with\n"
                 " * this work for additional information regarding copyright ownership.\n"
                 " * The ASF licenses this file to You under the Apache License, Version 2.0\n"
                 " * (the \"License\"); you may not use this file except in compliance with\n"
                 " * the License.  You may obtain a copy of the License at\n *\n"
                 " *      http://www.apache.org/licenses/LICENSE-2.0\n *\n"
                 " * Unless required by applicable law or agreed to in writing, software\n"
                 " * distributed under the License is distributed on an \"AS IS\" BASIS,\n"
                 " * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.\n"
                 " * See the License for the specific language governing permissions and\n"
                 " * limitations under the License.\n */\n\n")


def java_plant(variant, broken):
    b = "true" if broken else "false"
    head = (APACHE_HEADER + "package org.apache.commons.cli;\n\nimport static org.junit.jupiter.api.Assertions.assertFalse;\n\n"
            "import org.junit.jupiter.api.Test;\nimport org.junit.jupiter.params.ParameterizedTest;\nimport org.junit.jupiter.params.provider.ValueSource;\n\n")
    if variant == "plain":
        return f"{head}class ZzPlantedTest {{\n    static final boolean BROKEN = {b};\n\n    @Test\n    void planted() {{\n        assertFalse(BROKEN, \"planted failure\");\n    }}\n}}\n"
    rows = ", ".join(json.dumps(r, ensure_ascii=False) for r in ODD)
    return (f"{head}class ZzPlantedTest {{\n    static final boolean BROKEN = {b};\n\n    @ParameterizedTest\n    @ValueSource(strings = {{{rows}}})\n"
            f"    void plantedRows(String name) {{\n        assertFalse(BROKEN, name);\n    }}\n}}\n")


# name, language, planted file, plant, native whole-suite command, native command for the planted file
# (the runner's own output an agent would read otherwise: its default reporter, and for go test the
# per-test lines of -v, where seed 004 returned the larger -json stream),
# and optionally a file and the line appended to it that bring the planted file into a test target
PROJECTS = [
    ("go-cmp", "Go", "cmp/zz_planted_test.go", go("cmp"), ["go", "test", "-v", "-count=1", "./..."], ["go", "test", "-v", "-count=1", "-run", "Planted", "./cmp"]),
    ("go-toml", "Go", "zz_planted_test.go", go("toml"), ["go", "test", "-v", "-count=1", "./..."], ["go", "test", "-v", "-count=1", "-run", "Planted", "."]),
    ("itsdangerous", "Python", "tests/test_itsdangerous/test_zz_planted.py", pytest_plant, [".venv/bin/pytest"], [".venv/bin/pytest", "tests/test_itsdangerous/test_zz_planted.py"]),
    ("pyasn1", "Python", "tests/test_zz_planted.py", unittest_plant, [".venv/bin/python", "-m", "unittest", "discover", "-s", "tests", "-t", "."], [".venv/bin/python", "-m", "unittest", "tests.test_zz_planted"]),
    ("jest-mock-extended", "JS", "lib/zz_planted.spec.js", js_plant(""), ["node_modules/.bin/jest"], ["node_modules/.bin/jest", "zz_planted"]),
    ("zod", "JS", "src/v4/core/tests/zz_planted.test.ts", js_plant("import { describe, test } from 'vitest';\n"), ["node_modules/.bin/vitest", "run"], ["node_modules/.bin/vitest", "run", "zz_planted"]),
    ("json-schema-traverse", "JS", "spec/zz_planted.spec.js", js_plant("", "it"), ["node_modules/.bin/mocha", "spec"], ["node_modules/.bin/mocha", "spec/zz_planted.spec.js"]),
    ("light-my-request", "JS", "test/zz_planted.test.js", node_plant, ["node", "--test"], ["node", "--test", "test/zz_planted.test.js"]),
    # semver's published Cargo.toml says autotests = false and names its test
    # targets: a new file under tests/ is no target (cargo compiles it not,
    # and testdex warns so), so the plant is a module of test_version.
    ("semver", "Rust", "tests/zz_planted.rs", rust_plant, ["cargo", "test", "--locked"],
     ["cargo", "test", "--locked", "--test", "test_version", "zz_planted"], ("tests/test_version.rs", "\nmod zz_planted;\n")),
    ("commons-cli", "Java", "src/test/java/org/apache/commons/cli/ZzPlantedTest.java", java_plant,
     ["mvn", "-B", "-Dstyle.color=never", "test"], ["mvn", "-B", "-Dstyle.color=never", "test", "-Dtest=ZzPlantedTest", "-Dsurefire.failIfNoSpecifiedTests=false"]),
]


class Server:
    """A `testdex mcp` child spoken to over stdio, one JSON-RPC line each way."""

    def __init__(self, binary, root, env, budget):
        args = [binary, "mcp", "--root", root] + (["--budget", str(budget)] if budget else [])
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=root)
        self.next = 0
        self.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "mcpsessions", "version": "0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.p.stdin.write((json.dumps(msg, ensure_ascii=False) + "\n").encode())
        self.p.stdin.flush()

    def call(self, method, params):
        """Returns the reply's result and its size in bytes as sent."""
        self.next += 1
        self.send({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params})
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("testdex mcp ended")
            msg = json.loads(line)
            if msg.get("id") == self.next:
                if "error" in msg:
                    raise RuntimeError(msg["error"])
                return msg["result"], len(json.dumps(msg["result"], ensure_ascii=False, separators=(",", ":")).encode())

    def tool(self, name, args):
        res, size = self.call("tools/call", {"name": name, "arguments": args})
        if res.get("isError"):
            raise RuntimeError(f"{name} {args}: {res['content'][0]['text']}")
        return res, size

    def read(self, uri):
        res, _ = self.call("resources/read", {"uri": uri})
        return res["contents"][0].get("text", "")

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=30)


def native(cmd, cwd, env):
    """The bytes a native command writes (stdout and stderr together)."""
    r = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=900)
    return len(r.stdout)


def related(a, b):
    return a == b or a.startswith(b) or b.startswith(a)


def session(binary, budget, proj, variant):
    name, lang, rel, plant, whole, one = proj[:6]
    hook = proj[6] if len(proj) > 6 else None
    root = os.path.join(ROOT, name)
    path = os.path.join(root, rel)
    hooked = None
    if hook:
        with open(os.path.join(root, hook[0])) as f:
            hooked = f.read()
        with open(os.path.join(root, hook[0]), "w") as f:
            f.write(hooked + hook[1])
    env = dict(os.environ, TESTDEX_CACHE_DIR=tempfile.mkdtemp(prefix="mcpsessions-"), NO_COLOR="1", CI="1")
    row = {"project": name, "lang": lang, "variant": variant}
    try:
        with open(path, "w") as f:
            f.write(plant(variant, True))
        srv = Server(binary, root, env, budget)
        try:
            t0 = time.time()
            res, row["answer1"] = srv.tool("run_tests", {"scope": "all"})
            row["secs"] = time.time() - t0
            out = res["structuredContent"]
            failed = [f["id"] for f in out["failures"]]
            row["failed"] = out["failed"]
            row["planted_found"] = bool(failed) and all("planted" in i.lower() or "odd" in i.lower() for i in failed)
            with open(path, "w") as f:
                f.write(plant(variant, False))
            res2, row["answer2"] = srv.tool("run_tests", out["rerun"])
            out2 = res2["structuredContent"]
            again = json.loads(srv.read(f"testdex://runs/{out2['run']}/results"))["results"]
            ids = [r["id"] for r in again if r["action"] in ("pass", "fail")]  # a runner's filtered-out tests end skipped
            row["exact"] = all(any(related(i, f) for f in failed) for i in ids) and all(any(related(f, i) for i in ids) for f in failed)
            row["fixed"] = out2["failed"] == 0 and out2["exit"] == 0
            row["rerun"] = json.dumps(out["rerun"], ensure_ascii=False)
            row["warnings"] = out2.get("warnings", [])
        finally:
            srv.close()
        with open(path, "w") as f:
            f.write(plant(variant, True))
        row["raw1"] = native(whole, root, env)
        with open(path, "w") as f:
            f.write(plant(variant, False))
        row["raw2"] = native(one, root, env)
    except Exception as e:  # a session that breaks is reported, not hidden
        row["error"] = str(e)[:300]
    finally:
        if os.path.exists(path):
            os.remove(path)
        if hooked is not None:
            with open(os.path.join(root, hook[0]), "w") as f:
                f.write(hooked)
        shutil.rmtree(env["TESTDEX_CACHE_DIR"], ignore_errors=True)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--testdex", default="testdex")
    ap.add_argument("--only", default="")
    ap.add_argument("--budget", type=int, default=0)
    a = ap.parse_args()
    rows = []
    for proj in PROJECTS:
        if a.only and a.only != proj[0]:
            continue
        for variant in ("plain", "odd"):
            r = session(a.testdex, a.budget, proj, variant)
            rows.append(r)
            print(json.dumps(r, ensure_ascii=False), file=sys.stderr, flush=True)
    print("| project | lang | failing test | failed | testdex tokens (run + rerun) | runner output tokens (suite + file) | × | largest answer (bytes) | rerun exact | fixed |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    ratios = []
    for r in rows:
        if "error" in r:
            print(f"| {r['project']} | {r['lang']} | {r['variant']} | error: {r['error']} | | | | | | |")
            continue
        td = (r["answer1"] + r["answer2"]) / 4
        con = (r["raw1"] + r["raw2"]) / 4
        ratios.append(con / td)
        print(f"| {r['project']} | {r['lang']} | {r['variant']} | {r['failed']} | {td:.0f} ({r['answer1']//4} + {r['answer2']//4}) "
              f"| {con:.0f} ({r['raw1']//4} + {r['raw2']//4}) | {con/td:.1f} | {max(r['answer1'], r['answer2'])} "
              f"| {'yes' if r['exact'] else 'NO'} | {'yes' if r['fixed'] else 'NO'} |")
    if ratios:
        ok = [r for r in rows if "error" not in r]
        print(f"\n{len(ok)} sessions ({len(rows) - len(ok)} broke); the runner's output over testdex's answers: median {statistics.median(ratios):.1f}×, "
              f"min {min(ratios):.1f}×, max {max(ratios):.1f}×; largest testdex answer {max(max(r['answer1'], r['answer2']) for r in ok)} bytes; "
              f"reruns exact {sum(r['exact'] for r in ok)}/{len(ok)}, fixed {sum(r['fixed'] for r in ok)}/{len(ok)}")
        for r in ok:
            if r.get("warnings"):
                print(f"{r['project']} {r['variant']} rerun warnings: {r['warnings']}")

if __name__ == "__main__":
    main()
