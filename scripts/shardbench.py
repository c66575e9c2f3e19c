#!/usr/bin/env python3
"""scripts/shardbench.py measures sharding (docs/ci.md#sharding-one-suite-on-n-machines).

For each project: one full `testdex run --json` (its stream is the
durations), then for each N and each split (time: the duration plan;
count: the same packing without durations, which balances test counts;
round-robin: the files dealt out in turn), every shard run alone, one after
another, timed; `testdex merge` of the shards must give the full run's exit
code, no merge error, and the full run's results, test for test (an
outcome that differs, a flaky test's, is counted and named). Prints a markdown table: the predicted and the
measured max/mean of the shards' times (1.00 is a perfect balance), the
same of their CPU time (user and system, the shard's processes: a busy
machine disturbs it less than the wall time), the slowest shard, and the
full run. Each shard's predicted and measured times, per batch too, go to
stderr.

  scripts/shardbench.py [--projects sleepy,go-toml,commons-cli,polyglot] [--shards 4,8]
                        [--splits time,count,round-robin] [--jobs J] [--history-runs K]
                        [--rounds R] [--repeat M] [--control] [--bin BIN]

`polyglot` copies five fidelity projects (go-toml, attrs's tests under
pytest, zod under Vitest, semver under cargo, commons-cli under Maven) and
networkx's pytest suite (installed here from its sdist) into one root: one
plan over five languages, about 10,000 tests.

`sleepy` is a pytest suite generated here (seeded): 40 files whose tests
sleep for skewed times, one file holding a sixth of the total, about 60 s in
all. The others are the fidelity projects (scripts/setup/fidelity.sh
installs them), or those scripts/setup/shardcheck.sh installs (pluggy,
more-itertools, boltons, six, cachetools, jest-when, strsim). Builds ./cmd/testdex unless --bin is given. The machine's
load shows in the measured times: run it on a quiet machine.
"""
import argparse
import json
import os
import shutil
import random
import resource
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIDELITY = os.environ.get("TESTDEX_FIDELITY_DIR", os.path.expanduser("~/.cache/testdex-fidelity"))
# TIMEOUT is each run's: networkx's batch alone outlasts the default 5
# minutes on a loaded machine, and a timed-out batch is no measurement.
TIMEOUT = "30m"

# JOBS is each run's -j. 1 by default: a test's recorded duration is then
# its own, not stretched by another batch sharing the cores for part of
# it (with -j 2 networkx's early tests ran beside zod's workers and
# Maven, its later ones alone, so its durations misled the split by up to
# 3x), and a shard's time is the sum the split predicts. A shard run with
# lanes ends sooner than predicted when it holds several batches.
JOBS = 1
# HISTORY_RUNS, when above 0, makes the duration split read a history of
# that many full runs (their median per test, `--history FILE`) instead of
# one run's stream; each shard reads its own copy of it (a run appends to
# the history it names, and the next shard must split the same one).
HISTORY_RUNS = 0
# ROUNDS repeats the duration split that many times as a CI pipeline does
# run after run: after each round the shards' streams are merged into the
# next round's durations (or, with a history, the shards' histories into
# the one it splits by), so that its durations are the shards' own (a
# test's time in a shard's smaller process, not in the whole suite's). REPEAT runs each shard that many times and takes the
# median, so that one noisy run does not stand for the split.
ROUNDS = 1
REPEAT = 1
# CONTROL, when set, runs after the duration split's last round one of its
# shards (the one predicted nearest the mean) N times REPEAT times and
# prints the max/mean of the N medians as a row of its own: what this
# machine's run-to-run variation alone gives N shards of one time, the
# floor under what any split can measure here.
CONTROL = False
SPLITS = {
    "time": lambda d: ["--durations", d],
    "count": lambda d: [],
    "round-robin": lambda d: ["--durations", d, "--round-robin"],
}


def sleepy(root):
    """Writes the seeded pytest suite of sleeping tests under root."""
    rng = random.Random(1)
    files = {}
    for f in range(39):
        files[f"tests/test_f{f:02d}.py"] = [min(6.0, 0.05 * rng.paretovariate(1.2)) for _ in range(rng.randint(1, 10))]
    scale = 50.0 / sum(sum(v) for v in files.values())
    files = {k: [round(s * scale, 2) for s in v] for k, v in files.items()}
    files["tests/test_slow.py"] = [1.25] * 8  # a dominant file: a sixth of the total
    for path, sleeps in files.items():
        p = os.path.join(root, path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as out:
            out.write("import time\n")
            for i, s in enumerate(sleeps):
                out.write(f"\n\ndef test_{i}():\n    time.sleep({s})\n")
    with open(os.path.join(root, "pytest.ini"), "w") as out:
        out.write("[pytest]\n")
    return root


# The polyglot suite: real projects of five languages copied into one root,
# so that one plan spans them all (a monorepo): Go, pytest, Vitest, cargo
# and JUnit under Maven. Not click: its test_echo_via_pager fails when its
# file runs without the tests that import click._termui_impl first (an
# order dependence of the project's own, which any file split exposes).
# networkx (4,700 tests, a minute or more of pytest) is not a fidelity
# project: its suite is what gives the polyglot root tests whose time is in
# the tests rather than in start-up (Maven's lifecycle costs 9-14 s a shard
# whatever it runs, more than the mean shard of the five others at N=8).
# It is installed here, once, from its sdist.
POLYGLOT = ["go-toml", "acc-attrs", "zod", "semver", "commons-cli", "networkx"]
# SHARDCHECK are the projects scripts/setup/shardcheck.sh installs under
# BENCH when asked for (projects nobody sharded before, to check that the
# merged shards hold the full run's results).
SHARDCHECK = ["pluggy", "more-itertools", "boltons", "six", "cachetools", "jest-when", "strsim"]
BENCH = os.environ.get("TESTDEX_BENCH_DIR", os.path.expanduser("~/.cache/testdex-bench"))


def networkx():
    """Installs networkx 3.4.2's sdist with a virtualenv (pytest 9.2.0)
    under BENCH unless present; returns its folder."""
    dest = os.path.join(BENCH, "networkx")
    if os.path.exists(os.path.join(dest, ".venv", "bin", "pytest")):
        return dest
    os.makedirs(dest, exist_ok=True)
    dl = tempfile.mkdtemp(prefix="nxdl-")
    py = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    subprocess.run(py + ["download", "--quiet", "--no-deps", "--no-binary", ":all:", "-d", dl,
                         "networkx==3.4.2"], check=True)
    subprocess.run(["tar", "xzf", os.path.join(dl, "networkx-3.4.2.tar.gz"), "--strip-components=1"],
                   cwd=dest, check=True)
    subprocess.run([sys.executable, "-m", "venv", ".venv"], cwd=dest, check=True)
    subprocess.run([".venv/bin/pip", "install", "--quiet", "--disable-pip-version-check",
                    "pytest==9.2.0", "-e", "."], cwd=dest, check=True)
    return dest


def polyglot(root):
    """Copies the fidelity projects of POLYGLOT under root (Cargo's target
    left out: the full run builds it once); returns root."""
    import shutil
    if os.path.isdir(root):
        return root
    os.makedirs(root)
    for name in POLYGLOT:
        src = networkx() if name == "networkx" else os.path.join(FIDELITY, name)
        if not os.path.isdir(src):
            sys.exit(f"polyglot: {name} is not installed (scripts/setup/fidelity.sh)")
        shutil.copytree(src, os.path.join(root, name), symlinks=True,
                        ignore=shutil.ignore_patterns("target", ".git"))
    return root


def run(cmd, cwd, env, stdout=None):
    """Runs cmd and returns (exit code, seconds, stderr); LAST_CPU holds
    the CPU seconds (user and system) of it and its children."""
    global LAST_CPU
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=stdout or subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    LAST_CPU = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return p.returncode, time.monotonic() - start, p.stderr


LAST_CPU = 0.0
# DIFFS holds each difference between the merged shards and the full run;
# the script goes on to the next split and exits 1 at the end if any.
DIFFS = []


def differ(msg):
    """Records and prints a difference between the shards and the full run."""
    DIFFS.append(msg)
    print("DIFFERENCE: " + msg, file=sys.stderr, flush=True)


def bench(bin_, name, root, shards, splits, env, work):
    # A first run warms the builds (Go's cache, Cargo's target, Maven's
    # classes, Vitest's transforms), as a CI cache restores them: the timed
    # run's durations are then the tests' and a warm setup's, not a cold
    # compile that no shard pays again.
    lanes = ["-j", str(JOBS)]
    run([bin_, "run", "--json", "--timeout", TIMEOUT] + lanes, root, env)
    full = os.path.join(work, "full.jsonl")
    hist = os.path.join(work, "history.json")
    for _ in range(HISTORY_RUNS - 1):
        run([bin_, "run", "--timeout", TIMEOUT, "--history", hist] + lanes, root, env)
    recorded = ["--history", hist] if HISTORY_RUNS else []
    with open(full, "w") as out:
        code, secs, err = run([bin_, "run", "--json", "--timeout", TIMEOUT] + lanes + recorded, root, env, out)
    if code not in (0, 1):
        sys.exit(f"{name}: full run exit {code}\n{err}")
    rows = []
    for n in shards:
        for split in splits:
            rounds = ROUNDS if split == "time" else 1
            durations = full
            for rnd in range(1, rounds + 1):
                label = split if rounds == 1 else f"{split}, round {rnd}"
                d = os.path.join(work, f"{split}-{n}-{rnd}")
                row, copies, streams = shard_round(bin_, name, root, env, d, n, split, durations, hist, code, full)
                rows.append(row[:1] + (label,) + row[1:])
                if rnd == rounds:
                    if CONTROL and split == "time":
                        rows.append(control(bin_, name, root, env, d, n, durations, hist))
                    continue
                # As CI does: the next split reads the shards' histories
                # merged into the one it read, or the shards' merged
                # streams (docs/ci.md's workflows).
                if HISTORY_RUNS:
                    subprocess.run([bin_, "history", "merge", hist] + copies + ["-o", hist],
                                   cwd=root, env=env, check=True, capture_output=True)
                else:
                    durations = os.path.join(d, "merged.jsonl")
    return secs, rows


def results(stream):
    """The final outcome of each (ID, occurrence) a --json stream reports."""
    out = {}
    with open(stream) as f:
        for line in f:
            e = json.loads(line)
            if e.get("id") and e.get("action") in ("pass", "fail", "skip", "unreported"):
                out[(e["id"], e.get("occurrence", 0))] = e["action"]
    return out


def calibrate():
    """Times a fixed loop, so a slow spell of the machine shows beside the
    shard it fell on."""
    t = time.perf_counter()
    x = 0
    for i in range(2_000_000):
        x += i
    return time.perf_counter() - t


def batch_walls(stream):
    """Each batch's wall time in a --json stream (its end event's elapsed)."""
    out = {}
    with open(stream) as f:
        for line in f:
            if '"output"' in line:
                continue
            e = json.loads(line)
            if not e.get("id") and e.get("action") in ("pass", "fail") and "elapsed" in e:
                out[e["batch"]] = e["elapsed"]
    return out


def shard_round(bin_, name, root, env, d, n, split, full, hist, code, full_stream):
    """Plans N shards of split (by the durations of the stream full, or
    the history hist), runs each alone (REPEAT times, the median taken),
    merges their streams; returns the table row, the shards' history
    copies and their streams."""
    lanes = ["-j", str(JOBS)]
    extra = SPLITS[split]
    if split == "time" and HISTORY_RUNS:
        extra = lambda _: ["--history", hist]  # noqa: E731
    os.makedirs(d, exist_ok=True)
    p = subprocess.run([bin_, "plan", "--shards", str(n), "--json", "-o", d] + extra(full),
                       cwd=root, env=env, capture_output=True, text=True, check=True)
    doc = json.loads(p.stdout)
    with open(os.path.join(d, "shards.json"), "w") as f:
        f.write(p.stdout)
    k_all = range(1, len(doc["shards"]) + 1)
    streams = [os.path.join(d, f"shard-{k}.jsonl") for k in k_all]
    copies, times, speed, cpus = [], {k: [] for k in k_all}, {k: [] for k in k_all}, {k: [] for k in k_all}
    # The repetitions go round the shards (1..N, then 1..N again), so that
    # a slow spell of the machine falls on several shards, not on all
    # of one shard's runs (the median would keep it).
    for rep in range(REPEAT):
        for k in k_all:
            args = extra(full)
            if "--history" in args:  # each repetition splits the same history
                mine = os.path.join(d, f"history-{k}.json")
                shutil.copyfile(hist, mine)
                args = ["--history", mine]
                if rep == 0:
                    copies.append(mine)
            speed[k].append(calibrate())
            with open(streams[k - 1] if rep == 0 else streams[k - 1] + f".{rep}", "w") as out:
                _, t, _ = run([bin_, "run", "--json", "--timeout", TIMEOUT, "--shard", f"{k}/{n}"] + lanes + args,
                              root, env, out)
            times[k].append(t)
            cpus[k].append(LAST_CPU)
    shard_secs = [sorted(times[k])[len(times[k]) // 2] for k in k_all]
    shard_cpu = [sorted(cpus[k])[len(cpus[k]) // 2] for k in k_all]
    for k, sh in zip(k_all, doc["shards"]):
        walls = batch_walls(streams[k - 1])
        parts = [f'{b["name"].split()[0]} {b["setupSeconds"] + b["testsSeconds"]:.1f}/{walls.get(b["name"], 0):.1f}'
                 for b in sh.get("batches", [])]
        print(f"{name} N={n} {split} shard {k}: predicted {sh['predictedSeconds']:.1f} s, measured "
              f"{[round(t, 1) for t in times[k]]}, CPU {[round(c, 1) for c in cpus[k]]} (a fixed loop took {[round(c, 3) for c in speed[k]]} s before); batches predicted/measured: {', '.join(parts)}", file=sys.stderr)
    mcode, _, merr = run([bin_, "merge", "--plan", os.path.join(d, "plan.json")] + streams, root, env)
    if mcode != code or "shard" in merr:
        differ(f"{name} {split} {n}: merge exit {mcode}, the full run {code}\n{merr}")
    merged = os.path.join(d, "merged.jsonl")
    with open(merged, "w") as out:
        subprocess.run([bin_, "merge", "--json"] + streams, cwd=root, env=env, stdout=out, stderr=subprocess.DEVNULL)
    a, b = results(full_stream), results(merged)
    if set(a) != set(b):
        extra_, missing = sorted(set(b) - set(a)), sorted(set(a) - set(b))
        differ(f"{name} {split} {n}: the shards ran {len(extra_)} tests the full run did not {extra_[:5]}, "
               f"and not {len(missing)} it did {missing[:5]}")
    changed = sorted(k for k in a if k in b and a[k] != b[k])
    print(f"{name} N={n} {split}: {len(a)} results in the full run, {len(b)} in the shards', "
          f"{len(changed)} with another outcome {[(k, a[k], b[k]) for k in changed[:5]]}", file=sys.stderr)
    mean = sum(shard_secs) / len(shard_secs)
    predicted = [sh["predictedSeconds"] for sh in doc["shards"]]
    print(f"{name} N={n} {split}: shards measured {[round(t, 1) for t in shard_secs]}, "
          f"predicted {[round(t, 1) for t in predicted]}", file=sys.stderr)
    cpu_mean = sum(shard_cpu) / len(shard_cpu)
    row = (n, doc["maxSeconds"] / doc["meanSeconds"] if doc["meanSeconds"] else 1,
           max(shard_secs) / mean, max(shard_cpu) / cpu_mean if cpu_mean else 1, max(shard_secs), len(doc["shards"]))
    return row, copies, streams


def control(bin_, name, root, env, d, n, full, hist):
    """Runs the shard of the split in d predicted nearest the mean n times
    REPEAT times (as shard_round runs one, each from its own copy of the
    history); returns a table row of the n medians' max/mean."""
    with open(os.path.join(d, "shards.json")) as f:
        doc = json.load(f)
    preds = [sh.get("predictedSeconds", 0) for sh in doc.get("shards", [])]
    if not preds:
        return (n, "control", 1, 1, 1, 0, n)
    mean = sum(preds) / len(preds)
    k = min(range(len(preds)), key=lambda i: abs(preds[i] - mean)) + 1
    args = ["--history", hist] if HISTORY_RUNS else SPLITS["time"](full)
    groups = []
    for g in range(n):
        times = []
        for _ in range(REPEAT):
            if HISTORY_RUNS:
                mine = os.path.join(d, "history-control.json")
                shutil.copyfile(hist, mine)
                args = ["--history", mine]
            with open(os.path.join(d, "control.jsonl"), "w") as out:
                _, t, _ = run([bin_, "run", "--json", "--timeout", TIMEOUT, "--shard", f"{k}/{n}", "-j", str(JOBS)] + args,
                              root, env, out)
            times.append(t)
        groups.append(sorted(times)[len(times) // 2])
        print(f"{name} N={n} control: shard {k} (predicted {preds[k - 1]:.1f} s), group {g + 1}: {[round(t, 1) for t in times]}",
              file=sys.stderr)
    gm = sum(groups) / len(groups)
    return (n, f"control: shard {k} run {n}x{REPEAT}", 1.0, max(groups) / gm, 1.0, max(groups), n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--projects", default="sleepy,go-toml")
    ap.add_argument("--shards", default="4,8")
    ap.add_argument("--splits", default=",".join(SPLITS), help="of " + ", ".join(SPLITS))
    ap.add_argument("--jobs", type=int, default=1, help="each run's -j (default 1)")
    ap.add_argument("--history-runs", type=int, default=0,
                    help="split by the median of this many full runs' history instead of one run's stream")
    ap.add_argument("--rounds", type=int, default=1,
                    help="split by durations this many times, the shards' streams (or histories) merged between")
    ap.add_argument("--repeat", type=int, default=1, help="run each shard this many times, the median taken")
    ap.add_argument("--control", action="store_true",
                    help="also run one shard of the last duration split N times (the machine's own variation)")
    ap.add_argument("--bin")
    args = ap.parse_args()
    global JOBS, HISTORY_RUNS, ROUNDS, REPEAT, CONTROL
    JOBS, HISTORY_RUNS, ROUNDS, REPEAT, CONTROL = args.jobs, args.history_runs, args.rounds, args.repeat, args.control
    work = tempfile.mkdtemp(prefix="shardbench-")
    print(f"work folder: {work}", file=sys.stderr)
    bin_ = args.bin or os.path.join(work, "testdex")
    if not args.bin:
        subprocess.run(["go", "build", "-o", bin_, "./cmd/testdex"], cwd=REPO, check=True,
                       env=dict(os.environ, CGO_ENABLED="1"))
    env = dict(os.environ, TESTDEX_CACHE_DIR=os.path.join(work, "cache"), GOFLAGS="-count=1")
    shards = [int(s) for s in args.shards.split(",")]
    print("| project | full run | N | split | predicted max/mean | measured max/mean | its CPU max/mean | slowest shard |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.projects.split(","):
        if name == "sleepy":
            root = sleepy(os.path.join(work, "sleepy"))
        elif name == "polyglot":
            root = polyglot(os.path.join(work, "polyglot"))
        else:
            root = os.path.join(FIDELITY, name)
            if not os.path.isdir(root):  # scripts/setup/shardcheck.sh's
                root = os.path.join(BENCH, name)
                if name in SHARDCHECK and not os.path.isdir(root):
                    subprocess.run(["bash", os.path.join(REPO, "scripts", "setup", "shardcheck.sh")],
                                   env=dict(os.environ, TESTDEX_SHARDCHECK="1"))
        if not os.path.isdir(root):
            print(f"{name}: not installed (scripts/setup/fidelity.sh, scripts/setup/shardcheck.sh)", file=sys.stderr)
            continue
        pw = os.path.join(work, "out-" + name)  # not the polyglot root itself
        os.makedirs(pw, exist_ok=True)
        full, rows = bench(bin_, name, root, shards, args.splits.split(","), env, pw)
        for n, split, pred, meas, cpu, slowest, used in rows:
            used_note = "" if used == n else f" ({used} used)"
            print(f"| {name} | {full:.1f} s | {n}{used_note} | {split} | {pred:.2f} | {meas:.2f} | {cpu:.2f} | {slowest:.1f} s |",
                  flush=True)
    if DIFFS:
        sys.exit(f"{len(DIFFS)} differences between the shards and the full run:\n" + "\n".join(DIFFS))


if __name__ == "__main__":
    main()
