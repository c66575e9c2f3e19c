#!/usr/bin/env python3
"""scripts/flakycorpus.py writes the seeded flaky corpus (docs/running.md#measured-on-a-seeded-flaky-corpus).

    scripts/flakycorpus.py OUT [--det 50] [--flaky 5]

OUT gets five projects, one a language: go/ (go test), py/ (pytest),
js/ (node:test), rust/ (cargo test) and java/ (JUnit 5 under Maven). Each
has --det deterministic tests (they always pass) and --flaky flaky ones;
py/ and rust/ have one broken test each (it always fails). OUT is made a
git repository with one commit, as a CI checkout is. OUT/manifest.json
names every test by its testdex ID with its kind (deterministic, flaky,
broken) and, for a flaky one, its failure probability.

A flaky test fails when fnv1a32("SEED:NAME:N") % 10000 < P, P its
probability in basis points (5 % to 30 %, spread evenly over the flaky
tests), SEED the environment's FLAKY_SEED and N how many times the test has
already executed under FLAKY_DIR (a counter file per test): a run with a
given seed, and its reruns, are reproducible; another seed draws anew.
The same hash is written out in each language. Needs nothing from a
registry but JUnit 5 and Maven's plugins (scripts/setup/java.sh puts them
in ~/.m2).
"""
import argparse
import json
import os
import subprocess

HELP_GO = '''package corpus

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// flaky fails t when the seeded draw for this execution of name falls under bp basis points.
func flaky(t *testing.T, name string, bp uint32) {
	t.Helper()
	f := filepath.Join(os.Getenv("FLAKY_DIR"), name)
	b, _ := os.ReadFile(f)
	n, _ := strconv.Atoi(string(b))
	os.WriteFile(f, []byte(strconv.Itoa(n+1)), 0o644)
	h := fnv.New32a()
	fmt.Fprintf(h, "%s:%s:%d", os.Getenv("FLAKY_SEED"), name, n)
	if h.Sum32()%10000 < bp {
		t.Fatalf("flaky %s failed (draw %d)", name, n)
	}
}
'''

HELP_PY = '''import os


def flaky(name, bp):
    """Fails when the seeded draw for this execution of name falls under bp basis points."""
    f = os.path.join(os.environ["FLAKY_DIR"], name)
    n = int(open(f).read()) if os.path.exists(f) else 0
    with open(f, "w") as out:
        out.write(str(n + 1))
    h = 0x811C9DC5
    for c in f"{os.environ.get('FLAKY_SEED', '')}:{name}:{n}".encode():
        h = ((h ^ c) * 0x01000193) & 0xFFFFFFFF
    assert h % 10000 >= bp, f"flaky {name} failed (draw {n})"
'''

HELP_JS = '''const fs = require("node:fs");
const path = require("node:path");

// flaky throws when the seeded draw for this execution of name falls under bp basis points.
function flaky(name, bp) {
  const f = path.join(process.env.FLAKY_DIR, name);
  const n = fs.existsSync(f) ? parseInt(fs.readFileSync(f, "utf8"), 10) : 0;
  fs.writeFileSync(f, String(n + 1));
  let h = 0x811c9dc5;
  for (const c of Buffer.from(`${process.env.FLAKY_SEED || ""}:${name}:${n}`)) {
    h = Math.imul(h ^ c, 0x01000193) >>> 0;
  }
  if (h % 10000 < bp) throw new Error(`flaky ${name} failed (draw ${n})`);
}

module.exports = { flaky };
'''

HELP_RS = '''use std::{env, fs, path::Path};

/// Panics when the seeded draw for this execution of name falls under bp basis points.
pub fn flaky(name: &str, bp: u32) {
    let dir = env::var("FLAKY_DIR").expect("FLAKY_DIR");
    let f = Path::new(&dir).join(name);
    let n: u64 = fs::read_to_string(&f).ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    fs::write(&f, (n + 1).to_string()).unwrap();
    let mut h: u32 = 0x811c9dc5;
    for c in format!("{}:{}:{}", env::var("FLAKY_SEED").unwrap_or_default(), name, n).bytes() {
        h = (h ^ c as u32).wrapping_mul(0x01000193);
    }
    assert!(h % 10000 >= bp, "flaky {} failed (draw {})", name, n);
}
'''

HELP_JAVA = '''package corpus;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

final class Flaky {
    private Flaky() {}

    /** Throws when the seeded draw for this execution of name falls under bp basis points. */
    static void flaky(String name, int bp) throws Exception {
        Path f = Path.of(System.getenv("FLAKY_DIR"), name);
        int n = Files.exists(f) ? Integer.parseInt(Files.readString(f).trim()) : 0;
        Files.writeString(f, Integer.toString(n + 1));
        String seed = System.getenv("FLAKY_SEED") == null ? "" : System.getenv("FLAKY_SEED");
        int h = 0x811c9dc5;
        for (byte c : (seed + ":" + name + ":" + n).getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (c & 0xff)) * 0x01000193;
        }
        if (Integer.toUnsignedLong(h) % 10000 < bp) {
            throw new AssertionError("flaky " + name + " failed (draw " + n + ")");
        }
    }
}
'''

POM = '''<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>corpus</groupId>
  <artifactId>flakycorpus</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>5.10.2</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.12.1</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
    </plugins>
  </build>
</project>
'''

FILES = 5  # test files a language


def chunks(tests):
    """Deals the tests out over FILES files."""
    return [tests[i::FILES] for i in range(FILES)]


def go(tests):
    out = {"go/go.mod": "module corpus\n\ngo 1.21\n", "go/flaky_test.go": HELP_GO}
    ids = {}
    for f, part in enumerate(chunks(tests)):
        body = 'package corpus\n\nimport "testing"\n'
        for name, kind, bp in part:
            fn = "Test" + name.title().replace("_", "")
            if kind == "flaky":
                stmt = f'flaky(t, "go.{name}", {bp})'
            elif kind == "broken":
                stmt = 't.Fatal("broken: always fails")'
            else:
                stmt = f"if s := sum({len(name)}); s != {sum(range(len(name) + 1))} {{\n\t\tt.Fatalf(\"sum %d\", s)\n\t}}"
            body += f"\nfunc {fn}(t *testing.T) {{\n\t{stmt}\n}}\n"
            ids[f"go/f{f}_test.go::{fn}"] = (kind, bp)
        out[f"go/f{f}_test.go"] = body
    out["go/f0_test.go"] += "\nfunc sum(n int) int {\n\ts := 0\n\tfor i := 1; i <= n; i++ {\n\t\ts += i\n\t}\n\treturn s\n}\n"
    return out, ids


def py(tests):
    out = {"py/pytest.ini": "[pytest]\n", "py/tests/flk.py": HELP_PY, "py/tests/conftest.py": "import os, sys\n\nsys.path.insert(0, os.path.dirname(__file__))\n"}
    ids = {}
    for f, part in enumerate(chunks(tests)):
        body = "from flk import flaky\n"
        for name, kind, bp in part:
            if kind == "flaky":
                stmt = f'flaky("py.{name}", {bp})'
            elif kind == "broken":
                stmt = 'assert False, "broken: always fails"'
            else:
                stmt = f"assert sum(range({len(name) + 1})) == {sum(range(len(name) + 1))}"
            body += f"\n\ndef test_{name}():\n    {stmt}\n"
            ids[f"py/tests/test_f{f}.py::test_{name}"] = (kind, bp)
        out[f"py/tests/test_f{f}.py"] = body
    return out, ids


def js(tests):
    out = {"js/package.json": '{\n  "name": "corpus",\n  "private": true,\n  "scripts": { "test": "node --test" }\n}\n', "js/test/flk.js": HELP_JS}
    ids = {}
    for f, part in enumerate(chunks(tests)):
        body = 'const test = require("node:test");\nconst assert = require("node:assert");\nconst { flaky } = require("./flk.js");\n'
        for name, kind, bp in part:
            title = name.replace("_", " ")
            if kind == "flaky":
                stmt = f'flaky("js.{name}", {bp});'
            elif kind == "broken":
                stmt = 'assert.fail("broken: always fails");'
            else:
                stmt = f"assert.strictEqual([...Array({len(name) + 1}).keys()].reduce((a, b) => a + b, 0), {sum(range(len(name) + 1))});"
            body += f'\ntest("{title}", () => {{\n  {stmt}\n}});\n'
            ids[f"js/test/f{f}.test.js::{title}"] = (kind, bp)
        out[f"js/test/f{f}.test.js"] = body
    return out, ids


def rust(tests):
    out = {"rust/Cargo.toml": '[package]\nname = "corpus"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n', "rust/src/lib.rs": HELP_RS}
    ids = {}
    for f, part in enumerate(chunks(tests)):
        body = "use corpus::flaky;\n"
        for name, kind, bp in part:
            if kind == "flaky":
                stmt = f'flaky("rs.{name}", {bp});'
            elif kind == "broken":
                stmt = 'panic!("broken: always fails");'
            else:
                stmt = f"assert_eq!((0..={len(name)}u32).sum::<u32>(), {sum(range(len(name) + 1))});"
            body += f"\n#[test]\nfn {name}() {{\n    {stmt}\n}}\n"
            ids[f"rust/tests/f{f}.rs::{name}"] = (kind, bp)
        out[f"rust/tests/f{f}.rs"] = body
    return out, ids


def java(tests):
    out = {"java/pom.xml": POM, "java/src/test/java/corpus/Flaky.java": HELP_JAVA}
    ids = {}
    for f, part in enumerate(chunks(tests)):
        cls = f"F{f}Test"
        body = f"package corpus;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\nimport org.junit.jupiter.api.Test;\n\nclass {cls} {{\n"
        for name, kind, bp in part:
            mname = name.split("_")[0] + "".join(w.title() for w in name.split("_")[1:])
            if kind == "flaky":
                stmt = f'Flaky.flaky("java.{name}", {bp});'
            elif kind == "broken":
                stmt = 'fail("broken: always fails");'
            else:
                stmt = f"assertEquals({sum(range(len(name) + 1))}, java.util.stream.IntStream.rangeClosed(0, {len(name)}).sum());"
            body += f"\n    @Test\n    void {mname}() throws Exception {{\n        {stmt}\n    }}\n"
            ids[f"java/src/test/java/corpus/{cls}.java::{cls}.{mname}()"] = (kind, bp)
        out[f"java/src/test/java/corpus/{cls}.java"] = body + "}\n"
    return out, ids


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--det", type=int, default=50, help="deterministic tests a language")
    ap.add_argument("--flaky", type=int, default=5, help="flaky tests a language")
    a = ap.parse_args()
    langs = [go, py, js, rust, java]
    nflaky = a.flaky * len(langs)
    # The flaky probabilities, 500 to 3000 basis points, spread evenly and dealt out to the languages in turn.
    bps = [500 + round(2500 * i / max(1, nflaky - 1)) for i in range(nflaky)]
    files, manifest = {}, {}
    for li, lang in enumerate(langs):
        tests = [(f"det_{i:03d}", "deterministic", 0) for i in range(a.det)]
        tests += [(f"flaky_{i:02d}", "flaky", bps[i * len(langs) + li]) for i in range(a.flaky)]
        if lang in (py, rust):
            tests.append(("broken_one", "broken", 0))
        fs, ids = lang(tests)
        files.update(fs)
        manifest.update(ids)
    for rel, text in files.items():
        p = os.path.join(a.out, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)
    with open(os.path.join(a.out, ".gitignore"), "w") as f:
        f.write("target/\nmanifest.json\n__pycache__/\n")
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        json.dump({k: {"kind": v[0], "bp": v[1]} for k, v in sorted(manifest.items())}, f, indent=1)
    git = ["git", "-c", "user.name=corpus", "-c", "user.email=corpus@testdex.invalid"]
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "flaky corpus"]):
        subprocess.run(git + cmd, cwd=a.out, check=True)
    kinds = [v[0] for v in manifest.values()]
    print(f"{a.out}: {kinds.count('deterministic')} deterministic, {kinds.count('flaky')} flaky, {kinds.count('broken')} broken tests")


if __name__ == "__main__":
    main()
