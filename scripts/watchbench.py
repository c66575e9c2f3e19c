#!/usr/bin/env python3
"""scripts/watchbench.py — what `testdex watch` costs: the time from a save
to the first test result, its start-up, its idle CPU and memory, on a
root holding the watch test's fixture (Go, pytest, node:test) beside N
filler files, and a node_modules that must cost nothing.

    scripts/watchbench.py                 # 100,000 filler files, 7 saves
    scripts/watchbench.py --files 0 --saves 9

It drives `testdex watch --json` through a pipe, as a tool or an agent
would: a save is a write of calc/calc.go that breaks (then fixes) Add, and
its latency the wall time from just before the write to the arrival of the
first pass or fail event. docs/watch.md's figures come from here.
"""
import argparse, json, os, queue, shutil, signal, statistics, subprocess, sys, tempfile, threading, time

FIXTURE = {
    "go.mod": "module example.com/fx\n\ngo 1.22\n",
    "calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a + b }\n",
    "calc/calc_test.go": 'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(Add(2, 3))\n\t}\n}\n',
    "py/pytest.ini": "[pytest]\n",
    "py/shapes.py": "def area(w, h):\n    return w * h\n",
    "py/test_shapes.py": "from shapes import area\n\n\ndef test_area():\n    assert area(2, 3) == 6\n",
    "js/package.json": '{"name": "fxjs", "private": true, "scripts": {"test": "node --test"}}\n',
    "js/math.test.js": "const test = require('node:test');\ntest('one', () => {});\n",
}


def write(root, rel, text):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)


def ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=100_000)
    ap.add_argument("--saves", type=int, default=7)
    a = ap.parse_args()
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    tmp = tempfile.mkdtemp(prefix="watchbench-")
    p = None
    try:
        binp = os.path.join(tmp, "testdex")
        subprocess.run(["go", "build", "-o", binp, "./cmd/testdex"], cwd=repo, check=True)
        root = os.path.join(tmp, "root")
        for rel, text in FIXTURE.items():
            write(root, rel, text)
        per = 50  # files per folder
        for i in range(a.files):
            write(root, f"filler/d{i // per // 100:03d}/d{i // per:05d}/f{i % per}.txt", "x\n")
        for i in range(20_000):  # skipped by the walk: no watch, no event
            write(root, f"js/node_modules/dep{i // 100}/f{i % 100}.js", "\n")
        if shutil.which("git") and not os.environ.get("WATCHBENCH_NOGIT"):  # a work tree: saves of calc.go are narrowed to Add
            for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "bench"]):
                subprocess.run(["git", "-c", "user.email=w@b", "-c", "user.name=w", "-c", "commit.gpgsign=false"] + args,
                               cwd=root, check=True, stdout=subprocess.DEVNULL)
        env = dict(os.environ, TESTDEX_CACHE_DIR=os.path.join(tmp, "cache"), PYTHONDONTWRITEBYTECODE="1")
        start = time.time()
        p = subprocess.Popen([binp, "watch", "--json"], cwd=root, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)

        lines = queue.Queue()
        threading.Thread(target=lambda: [lines.put(l) for l in p.stdout] + [lines.put("")], daemon=True).start()

        def event(pred, timeout=120):
            end = time.time() + timeout
            while time.time() < end:
                try:
                    line = lines.get(timeout=1)
                except queue.Empty:
                    continue
                if not line:
                    sys.exit("watch ended")
                if os.environ.get("WATCHBENCH_DEBUG"):
                    print(line.strip()[:200], file=sys.stderr)
                e = json.loads(line)
                if pred(e):
                    return e
            sys.exit("timed out")

        event(lambda e: e.get("action") == "cycle")
        startup = time.time() - start
        time.sleep(2)
        t0 = ticks(p.pid)
        time.sleep(10)
        idle = (ticks(p.pid) - t0) / os.sysconf("SC_CLK_TCK")
        rss = rss_mb(p.pid)
        lat = []
        for i in range(a.saves):
            body = FIXTURE["calc/calc.go"]
            if i % 2 == 0:
                body = body.replace("a + b", "a - b")
            s = time.time()
            write(root, "calc/calc.go", body)
            c = event(lambda e: e.get("action") == "cycle")
            event(lambda e: e.get("id") and e.get("action") in ("pass", "fail"))
            lat.append((time.time() - s) * 1000)
            event(lambda e: e.get("action") in ("pass", "fail", "error") and not e.get("id"))  # the batch ends
            time.sleep(0.5)
        after = rss_mb(p.pid)
        p.send_signal(signal.SIGINT)
        p.wait(timeout=60)
        print(f"machine: {os.cpu_count()} cores, load {open('/proc/loadavg').read().split()[0]}")
        print(f"tree: {a.files} filler files in {a.files // per} folders, 20000 in node_modules, the fixture")
        print(f"start-up to the first cycle: {startup:.2f} s")
        print(f"idle 10 s: {idle:.2f} s of CPU; RSS {rss:.0f} MB, {after:.0f} MB after {a.saves} saves")
        print(f"save -> first result, ms: median {statistics.median(lat):.0f}, min {min(lat):.0f}, max {max(lat):.0f} "
              f"({', '.join(f'{x:.0f}' for x in lat)}); selected {c.get('selected')} per save")
    finally:
        if p is not None and p.poll() is None:  # stopped early: end watch before its folder goes
            p.send_signal(signal.SIGINT)
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
