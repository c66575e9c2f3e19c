#!/usr/bin/env python3
"""scripts/flakybench.py measures flaky-test detection on the seeded corpus (docs/running.md#measured-on-a-seeded-flaky-corpus).

    scripts/flakybench.py [--runs 20] [--retries 2] [--bin BIN] [--keep DIR]

Writes the corpus of scripts/flakycorpus.py (five languages: 250
deterministic tests, 25 flaky ones failing with a probability of 5 % to
30 %, 2 broken ones) into a temporary folder and runs it as CI would:
`testdex run --retries 2 --history H` --runs times, FLAKY_SEED=1, 2, ...
(a new draw each run, reproducible), the history accumulating. Then
`testdex flaky --json --history H` and `testdex flaky --quarantine`, and
one more run (seed --runs+1) with the quarantine applied. Prints:

  - the injected flaky tests found (verdict flaky), against the share a
    perfect detector could find: those that failed at least once;
  - the deterministic tests called anything but ok;
  - the broken tests: their verdict, whether one was quarantined, and
    whether the last run still failed for them (not hidden).

Exits 1 when found < 90 %, deterministic called flaky > 1 %, or a broken
test was quarantined or hidden. Needs go, python3 with pytest, node,
cargo, and mvn with ~/.m2 filled by scripts/setup/java.sh; about 20 s a
run on two cores. Builds ./cmd/testdex unless --bin is given. Not part of
`go test`.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import tomllib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def testdex(bin_, args, cwd, env):
    return subprocess.run([bin_] + args, cwd=cwd, env=env, capture_output=True, text=True)


def finals(stream):
    """The final event of each test of a --json stream."""
    out = {}
    for line in stream.splitlines():
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if e.get("id") and e.get("action") in ("pass", "fail", "skip", "flaky"):
            out[e["id"]] = e
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--retries", type=int, default=2)
    ap.add_argument("--bin")
    ap.add_argument("--keep", help="write the corpus here (kept) instead of a temporary folder")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="flakybench-")
    root = a.keep or os.path.join(work, "corpus")
    bin_ = a.bin
    if not bin_:
        bin_ = os.path.join(work, "testdex")
        subprocess.run(["go", "build", "-o", bin_, "./cmd/testdex"], cwd=REPO, check=True, env=dict(os.environ, CGO_ENABLED="1"))
    subprocess.run([sys.executable, os.path.join(REPO, "scripts", "flakycorpus.py"), root], check=True)
    manifest = json.load(open(os.path.join(root, "manifest.json")))
    hist = os.path.join(work, "history.jsonl")
    env = dict(os.environ, TESTDEX_CACHE_DIR=os.path.join(work, "cache"))
    failed_once = set()  # flaky tests whose first attempt failed in some run
    skipped = 0  # final results "skip": the corpus skips nothing, so a rerun's artefact
    for seed in range(1, a.runs + 1):
        state = os.path.join(work, f"state{seed}")
        os.makedirs(state)
        e = dict(env, FLAKY_SEED=str(seed), FLAKY_DIR=state)
        t0 = time.time()
        r = testdex(bin_, ["run", "--json", "--retries", str(a.retries), "--history", hist], root, e)
        fin = finals(r.stdout)
        kinds = {}
        for id_, ev in fin.items():
            kinds[ev["action"]] = kinds.get(ev["action"], 0) + 1
            skipped += ev["action"] == "skip"
            if ev["action"] in ("flaky", "fail") and manifest.get(id_, {}).get("kind") == "flaky":
                failed_once.add(id_)
        missing = set(manifest) - set(fin)
        print(f"run {seed:2d}: exit {r.returncode}, {len(fin)} tests {dict(sorted(kinds.items()))}, {time.time() - t0:.0f}s"
              + (f", {len(missing)} not reported" if missing else ""), flush=True)
    r = testdex(bin_, ["flaky", "--json", "--all", "--history", hist], root, env)
    verdicts = {v["id"]: v for v in map(json.loads, r.stdout.splitlines())}
    testdex(bin_, ["flaky", "--quarantine", "--history", hist], root, env)
    qfile = os.path.join(root, "testdex.quarantine.toml")
    quarantined = set()
    if os.path.exists(qfile):
        quarantined = {q["id"] for q in tomllib.load(open(qfile, "rb")).get("test", [])}
    state = os.path.join(work, "state-last")
    os.makedirs(state)
    last = testdex(bin_, ["run", "--json", "--retries", str(a.retries), "--history", hist], root,
                   dict(env, FLAKY_SEED=str(a.runs + 1), FLAKY_DIR=state))
    lastfin = finals(last.stdout)

    def of(kind):
        return sorted(k for k, v in manifest.items() if v["kind"] == kind)

    flaky, det, broken = of("flaky"), of("deterministic"), of("broken")
    found = [i for i in flaky if verdicts.get(i, {}).get("verdict") == "flaky"]
    det_flaky = [i for i in det if verdicts.get(i, {}).get("verdict") == "flaky"]
    det_not_ok = [i for i in det if verdicts.get(i, {}).get("verdict") != "ok"]
    hidden = [i for i in broken if i in quarantined or lastfin.get(i, {}).get("action") != "fail" or lastfin[i].get("quarantined")]
    print()
    print(f"injected flaky found: {len(found)}/{len(flaky)} ({100 * len(found) / len(flaky):.0f} %); "
          f"{len(failed_once)} of them failed at least once in {a.runs} runs")
    for i in flaky:
        if i not in found:
            v = verdicts.get(i, {})
            print(f"  missed: {i} (p={manifest[i]['bp'] / 100:.1f} %): {v.get('verdict')}, failed {v.get('failed')} of {v.get('runs')} runs")
    print(f"final results 'skip' over the {a.runs} runs (the corpus skips nothing): {skipped}")
    print(f"deterministic called flaky: {len(det_flaky)}/{len(det)} ({100 * len(det_flaky) / len(det):.1f} %); not ok: {len(det_not_ok)}")
    for i in broken:
        print(f"broken {i}: {verdicts.get(i, {}).get('verdict')}, quarantined: {i in quarantined}, "
              f"last run: {lastfin.get(i, {}).get('action')}")
    print(f"quarantined: {len(quarantined)} ({len(quarantined & set(flaky))} injected flaky); "
          f"last run (quarantine applied) exit {last.returncode}")
    ok = skipped == 0 and len(found) >= 0.9 * len(flaky) and len(det_flaky) <= 0.01 * len(det) and not hidden and last.returncode == 1
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
