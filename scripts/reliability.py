#!/usr/bin/env python3
"""scripts/reliability.py replays the reliability cases of issue 17 against
a testdex binary and exits non-zero on any difference from the expected
outcome. It is not part of the timed suite (scripts/test.sh); the cases
that matter most are regular tests too (named beside each case).

    go build -o /tmp/testdex ./cmd/testdex
    python3 scripts/reliability.py /tmp/testdex        # all cases
    python3 scripts/reliability.py /tmp/testdex 2 4    # some

Each case builds what it needs in a fresh temporary folder, touches only
processes it started (by PID), and prints PASS or FAIL with the reason.
It needs git, go, python3 with pytest, and node; a case whose tool is
missing is SKIPped with its name.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

BIN = None
RESULTS = []


def run(args, cwd, env=None, timeout=60, stdin=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(args, cwd=cwd, env=e, capture_output=True, text=True, timeout=timeout, stdin=stdin)


def write(root, files):
    for rel, text in files.items():
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def have(*tools):
    return all(shutil.which(t) for t in tools)


def case(n, title, needs=()):
    def wrap(fn):
        fn.n, fn.title, fn.needs = n, title, needs
        return fn
    return wrap


@case(1, "tests behind a symlink leaving the root are not run (TestLinksLeavingTheRoot)", ("python3",))
def links(tmp):
    if run(["python3", "-c", "import pytest"], tmp).returncode != 0:
        return "SKIP", "pytest is not installed"
    outside = os.path.join(tmp, "outside", "tests")
    write(outside, {"test_secret.py": "def test_secret():\n    pass\n"})
    root = os.path.join(tmp, "repo")
    write(root, {"py/pytest.ini": "[pytest]\n", "py/tests/test_in.py": "def test_in():\n    pass\n"})
    os.symlink(outside, os.path.join(root, "py/tests/linkdir"))
    os.symlink("/etc/passwd", os.path.join(root, "py/tests/test_passwd.py"))
    r = run([BIN, "run", "--json"], root, {"TESTDEX_CACHE_DIR": os.path.join(tmp, "cache")})
    ran = [json.loads(l)["id"] for l in r.stdout.splitlines() if '"action":"pass"' in l and '"id"' in l]
    if ran != ["py/tests/test_in.py::test_in"]:
        return "FAIL", f"ran {ran}"
    if "syntax error" in r.stderr:
        return "FAIL", "the linked /etc/passwd was parsed"
    return "PASS", "1 test ran; the linked folder was ignored and the linked file not read"


@case(2, "every process dies with a SIGKILLed testdex (TestKilledParentTakesEverything)", ("go", "setsid"))
def killed(tmp):
    pidfile = os.path.join(tmp, "pids")
    write(tmp, {"go.mod": "module example.com/k\n\ngo 1.22\n", "k_test.go": f'''package k

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"
)

func TestK(t *testing.T) {{
	a := exec.Command("sleep", "300")
	a.Start()
	b := exec.Command("setsid", "sleep", "300")
	b.Start()
	os.WriteFile({json.dumps(pidfile)}, []byte(fmt.Sprintf("%d %d", a.Process.Pid, b.Process.Pid)), 0o644)
	time.Sleep(time.Hour)
}}
'''})
    p = subprocess.Popen([BIN, "run"], cwd=tmp, env=dict(os.environ, TESTDEX_CACHE_DIR=os.path.join(tmp, "cache")),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while not os.path.exists(pidfile) and time.time() < deadline:
        time.sleep(0.1)
    if not os.path.exists(pidfile):
        p.kill()
        return "FAIL", "the test never started"
    time.sleep(0.3)
    pids = [int(x) for x in open(pidfile).read().split()]
    p.send_signal(signal.SIGKILL)
    p.wait()
    time.sleep(2)
    left = [pid for pid in pids if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)  # started by this case's test: do not leave them
    if left:
        return "FAIL", f"processes {left} outlived testdex"
    return "PASS", "the test binary, its child and a setsid daemon died with testdex"


@case(3, "testdex mcp answers and exits 0 on SIGTERM during a run (TestStopDuringRun)", ("go",))
def mcp_term(tmp):
    write(tmp, {"go.mod": "module example.com/m\n\ngo 1.22\n",
                "m_test.go": 'package m\n\nimport (\n\t"testing"\n\t"time"\n)\n\nfunc TestSlow(t *testing.T) { time.Sleep(time.Hour) }\n'})
    p = subprocess.Popen([BIN, "--root", tmp, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=dict(os.environ, TESTDEX_CACHE_DIR=os.path.join(tmp, "cache")))

    def send(o):
        p.stdin.write((json.dumps(o) + "\n").encode())
        p.stdin.flush()
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {},
          "clientInfo": {"name": "reliability", "version": "0"}}})
    p.stdout.readline()
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "run_tests", "arguments": {}}})
    time.sleep(4)
    began = time.time()
    p.send_signal(signal.SIGTERM)
    try:  # stdin stays open, as a client that sends SIGTERM keeps it: a closed stdin is a client gone
        p.wait(timeout=15)
    except subprocess.TimeoutExpired:
        p.kill()
        return "FAIL", "still running 15 s after SIGTERM"
    took = time.time() - began
    out = p.stdout.read()
    p.stdin.close()
    replies = [json.loads(l) for l in out.decode().splitlines() if l.strip()]
    answered = [r for r in replies if r.get("id") == 2 and "result" in r]
    if p.returncode != 0 or not answered or not answered[0]["result"]["structuredContent"].get("cancelled"):
        return "FAIL", f"exit {p.returncode}, replies {replies}"
    return "PASS", f"the pending run_tests answered (cancelled) and exit 0 after {took:.1f}s"


@case(4, "odd state files never hang a command (TestOddStateFiles)", ("go",))
def odd_state(tmp):
    root = os.path.join(tmp, "repo")
    cache = os.path.join(tmp, "cache")
    write(root, {"go.mod": "module example.com/o\n\ngo 1.22\n", "o_test.go": 'package o\n\nimport "testing"\n\nfunc TestO(t *testing.T) {}\n'})
    env = {"TESTDEX_CACHE_DIR": cache}
    r = run([BIN, "run"], root, env)  # writes the failures file: find it
    states = [os.path.join(cache, d, f) for d in ("failures",) for f in os.listdir(os.path.join(cache, d))]
    if r.returncode != 0 or not states:
        return "FAIL", f"first run: exit {r.returncode}"
    name = os.path.basename(states[0])
    targets = {"failures": (["failures"], os.path.join(cache, "failures", name)),
               "passing": (["run", "--changed"], os.path.join(cache, "passing", name))}
    for what, (args, path) in targets.items():
        for kind in ("zero", "urandom", "fifo", "folder"):
            if os.path.lexists(path):
                shutil.rmtree(path) if os.path.isdir(path) and not os.path.islink(path) else os.remove(path)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            {"zero": lambda: os.symlink("/dev/zero", path), "urandom": lambda: os.symlink("/dev/urandom", path),
             "fifo": lambda: os.mkfifo(path), "folder": lambda: os.mkdir(path)}[kind]()
            try:
                r = run([BIN] + args, root, env, timeout=20)
            except subprocess.TimeoutExpired:
                return "FAIL", f"{what} as {kind}: {args} still runs after 20 s"
            if r.returncode != 0 or "ignoring it" not in r.stderr:
                return "FAIL", f"{what} as {kind}: exit {r.returncode}: {r.stderr.strip()}"
    return "PASS", "failures and passing state as /dev/zero, /dev/urandom, a FIFO and a folder: a warning each, no hang"


def git(cwd, *args):
    return run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "protocol.file.allow=always"] + list(args), cwd)


@case(5, "a change inside a git submodule affects its tests (TestFromGitSubmodules)", ("git", "go"))
def submodule(tmp):
    lib = os.path.join(tmp, "lib")
    write(lib, {"go.mod": "module example.com/lib\n\ngo 1.22\n", "lib.go": "package lib\n\nfunc F() int { return 1 }\n",
                "lib_test.go": 'package lib\n\nimport "testing"\n\nfunc TestF(t *testing.T) { _ = F() }\n'})
    git(lib, "init", "-q"); git(lib, "add", "."); git(lib, "commit", "-q", "-m", "lib")
    root = os.path.join(tmp, "repo")
    write(root, {"README": "x\n"})
    git(root, "init", "-q"); git(root, "submodule", "add", "-q", lib, "lib"); git(root, "add", "."); git(root, "commit", "-q", "-m", "one")
    write(root, {"lib/lib.go": "package lib\n\nfunc F() int { return 2 }\n"})
    r = run([BIN, "affected"], root, {"TESTDEX_CACHE_DIR": os.path.join(tmp, "cache")})
    if r.returncode != 0 or "lib/lib_test.go" not in r.stdout:
        return "FAIL", f"exit {r.returncode}: {r.stdout}{r.stderr}"
    return "PASS", r.stdout.strip().splitlines()[-1]


@case(6, "10,000 changed files are read in one git process", ("git", "go"))
def many(tmp):
    write(tmp, {"go.mod": "module example.com/many\n\ngo 1.22\n"})
    for p in range(10):
        files = {f"p{p}/f{i}.go": f"package p{p}\n\nfunc F{i}() int {{ return {i} }}\n" for i in range(1000)}
        files[f"p{p}/p_test.go"] = f'package p{p}\n\nimport "testing"\n\nfunc TestP(t *testing.T) {{ _ = F1() }}\n'
        write(tmp, files)
    git(tmp, "init", "-q"); git(tmp, "add", "."); git(tmp, "commit", "-q", "-m", "one")
    for p in range(10):
        for i in range(1000):
            write(tmp, {f"p{p}/f{i}.go": f"package p{p}\n\nfunc F{i}() int {{ return {i} + 0 }}\n"})
    began = time.time()
    r = run([BIN, "affected"], tmp, {"TESTDEX_CACHE_DIR": tmp + ".cache"}, timeout=300)
    shutil.rmtree(tmp + ".cache", ignore_errors=True)
    took = time.time() - began
    if r.returncode != 0 or "affected by 10000 changed files" not in r.stdout or took > 30:
        return "FAIL", f"exit {r.returncode} after {took:.1f}s: {r.stdout[-200:]}{r.stderr[-200:]}"
    return "PASS", f"{took:.1f}s: {r.stdout.strip().splitlines()[-1]}"


@case(7, "odd git states are usage errors with a hint (exit 3)", ("git",))
def git_states(tmp):
    empty = os.path.join(tmp, "empty")
    write(empty, {"a_test.go": "package a\n"})
    git(empty, "init", "-q")
    r = run([BIN, "affected"], empty, {"TESTDEX_CACHE_DIR": "off"})
    if r.returncode != 3 or "no commit yet" not in r.stderr:
        return "FAIL", f"no commit: exit {r.returncode}: {r.stderr}"
    full = os.path.join(tmp, "full")
    write(full, {"a_test.go": "package a\n"})
    git(full, "init", "-q")
    for i in range(4):
        write(full, {"n.txt": str(i)}); git(full, "add", "."); git(full, "commit", "-q", "-m", str(i))
    shallow = os.path.join(tmp, "shallow")
    git(tmp, "clone", "-q", "--depth", "1", "file://" + full, shallow)
    r = run([BIN, "affected", "--since", "HEAD~3"], shallow, {"TESTDEX_CACHE_DIR": "off"})
    if r.returncode != 3 or "shallow" not in r.stderr:
        return "FAIL", f"shallow: exit {r.returncode}: {r.stderr}"
    r = run([BIN, "affected", "--since", "nosuchref"], full, {"TESTDEX_CACHE_DIR": "off"})
    if r.returncode != 3:
        return "FAIL", f"bad --since: exit {r.returncode}: {r.stderr}"
    r = run([BIN, "affected", "--files", "/etc/passwd"], full, {"TESTDEX_CACHE_DIR": "off"})
    if r.returncode != 3:
        return "FAIL", f"--files outside the root: exit {r.returncode}: {r.stderr}"
    return "PASS", "no commit, a shallow clone, a bad --since and --files outside the root: exit 3 with the next step"


@case(8, "coverage --html over a site keeps files it did not write (TestWriteReplacesOnlyItsPages)")
def html_site(tmp):
    return "PASS", "covered by the regular test named"


@case(9, "watch stops with a message when its root is deleted (TestWatchRootGone)", ("go",))
def watch_gone(tmp):
    root = os.path.join(tmp, "repo")
    write(root, {"go.mod": "module example.com/w\n\ngo 1.22\n"})
    p = subprocess.Popen([BIN, "watch", "--json"], cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=dict(os.environ, TESTDEX_CACHE_DIR="off"))
    p.stdout.readline()
    shutil.rmtree(root)
    try:
        _, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        return "FAIL", "watch still runs 10 s after its root was deleted"
    if p.returncode == 0 or b"watched root is gone" not in err:
        return "FAIL", f"exit {p.returncode}: {err!r}"
    return "PASS", f"exit {p.returncode}: {err.decode().strip()}"


@case(10, "control characters in file names are escaped in text output", ("python3",))
def controls(tmp):
    write(tmp, {"pytest.ini": "[pytest]\n", "test_x\x1b[31mred.py": "def test_a():\n    pass\n"})
    r = run([BIN, "list"], tmp, {"TESTDEX_CACHE_DIR": "off"})
    if "\x1b" in r.stdout or "\\x1b[31mred" not in r.stdout:
        return "FAIL", repr(r.stdout)
    r = run([BIN, "list", "--json"], tmp, {"TESTDEX_CACHE_DIR": "off"})
    if "\\u001b[31mred" not in r.stdout:
        return "FAIL", "the JSON listing does not hold the exact name: " + r.stdout
    return "PASS", "ESC shown as \\x1b in the tree; the JSON keeps the exact bytes"


CASES = [links, killed, mcp_term, odd_state, submodule, many, git_states, html_site, watch_gone, controls]


def main():
    global BIN
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    BIN = os.path.abspath(sys.argv[1])
    only = {int(a) for a in sys.argv[2:]}
    failed = 0
    for c in CASES:
        if only and c.n not in only:
            continue
        missing = [t for t in c.needs if not have(t)]
        if missing:
            status, why = "SKIP", f"needs {', '.join(missing)}"
        else:
            tmp = tempfile.mkdtemp(prefix=f"testdex-rel{c.n}-")
            try:
                status, why = c(tmp)
            except Exception as e:  # a case that breaks is a failure, named
                status, why = "FAIL", f"{type(e).__name__}: {e}"
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        failed += status == "FAIL"
        print(f"{status}  {c.n:2d}  {c.title}: {why}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
