#!/usr/bin/env python3
"""A stand-in for an agent CLI, for testdex's spec runner tests (no network,
no model). bin/claude, bin/codex, bin/gemini, bin/opencode and bin/custom-agent
run it with the CLI's name first. It accepts exactly the argv testdex's preset
for that CLI passes (anything else: exit 64 and the reason on stderr), reads the
prompt, and answers in that CLI's output format from directives in the spec.

Directives are HTML comments in a scenario's section (for a spec without
scenarios, in its body):

  <!-- fake: pass -->            pass (the default)
  <!-- fake: fail -->            fail, with observed, location and resolution
  <!-- fake: chatter -->         pass, the JSON inside prose and a fenced block
  <!-- fake: skip -->            no answer for this scenario
  <!-- fake: random -->          pass or fail at random (FAKE_AGENT_SEED: repeatably)
  <!-- fake: status-maybe -->    status "maybe", which is not a verdict

and these, which decide the whole call when a judged scenario has one:

  <!-- fake: empty-then-pass --> the first call answers nothing, the next ones pass
  <!-- fake: garbage -->         an answer without JSON
  <!-- fake: hang -->            sleeps for an hour (a timeout must stop it)
  <!-- fake: crash -->           exits 3, nothing on stdout, a message on stderr
  <!-- fake: agent-error -->     the CLI's own error ("Not logged in")

The files a scenario "read" are the `paths` in backticks in its section that
exist under the current folder. FAKE_AGENT_LOG, when set, gets one JSON line per
call: {"cli", "argv" (the prompt replaced by "PROMPT"), "model", "skip", "ids"}.
FAKE_AGENT_STATE is a folder for the calls empty-then-pass counts.
"""

import json
import os
import random
import re
import sys
import time

WHOLE = ["hang", "crash", "garbage", "agent-error", "empty-then-pass"]


def usage(cli, argv, why):
    sys.stderr.write("fake %s: unexpected argv %r: %s\n" % (cli, argv, why))
    sys.exit(64)


def take(argv, flag):
    """Removes an optional flag (with its value when it has one) from the front."""
    if argv and argv[0] == flag:
        return argv[1:], True
    return argv, False


def option(argv, flag):
    if len(argv) >= 2 and argv[0] == flag:
        return argv[2:], argv[1]
    return argv, None


def parse_claude(argv):
    fixed = ["-p", "--output-format", "json", "--no-session-persistence"]
    if argv[:4] != fixed:
        usage("claude", argv, "want %s first" % fixed)
    rest, model = option(argv[4:], "--model")
    rest, skip = take(rest, "--dangerously-skip-permissions")
    if len(rest) != 1:
        usage("claude", argv, "want the prompt last, alone")
    return rest[0], model, skip


def parse_codex(argv):
    fixed = ["exec", "--json", "--skip-git-repo-check", "--ephemeral"]
    if argv[:4] != fixed:
        usage("codex", argv, "want %s first" % fixed)
    rest, skip = take(argv[4:], "--dangerously-bypass-approvals-and-sandbox")
    if not skip:
        if rest[:2] != ["--sandbox", "read-only"]:
            usage("codex", argv, "want --sandbox read-only without the bypass")
        rest = rest[2:]
    rest, model = option(rest, "-m")
    if len(rest) != 1:
        usage("codex", argv, "want the prompt last, alone")
    return rest[0], model, skip


def parse_gemini(argv):
    if argv[:2] != ["--output-format", "json"]:
        usage("gemini", argv, "want --output-format json first")
    rest, model = option(argv[2:], "-m")
    rest, skip = take(rest, "--yolo")
    if skip:
        rest, trust = take(rest, "--skip-trust")
        if not trust:
            usage("gemini", argv, "want --skip-trust after --yolo")
    if len(rest) != 2 or rest[0] != "-p":
        usage("gemini", argv, "want -p PROMPT last")
    return rest[1], model, skip


def parse_opencode(argv):
    if argv[:3] != ["run", "--format", "json"]:
        usage("opencode", argv, "want run --format json first")
    rest, model = option(argv[3:], "-m")
    rest, skip = take(rest, "--auto")
    if len(rest) != 1:
        usage("opencode", argv, "want the prompt last, alone")
    return rest[0], model, skip


def parse_custom(argv):
    # [specs] agent = ["custom-agent", "--prompt-file", "{prompt_file}", "--model={model}", "{permissions}"]
    if len(argv) < 2 or argv[0] != "--prompt-file":
        usage("custom-agent", argv, "want --prompt-file FILE first")
    with open(argv[1]) as f:
        prompt = f.read()
    model, skip = None, False
    for a in argv[2:]:
        if a.startswith("--model="):
            model = a[len("--model="):]
        elif a == "--yes":
            skip = True
        else:
            usage("custom-agent", argv, "unknown argument %r" % a)
    return prompt, model, skip


PARSERS = {"claude": parse_claude, "codex": parse_codex, "gemini": parse_gemini,
           "opencode": parse_opencode, "custom-agent": parse_custom}

HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*$")
SCENARIO = re.compile(r"[ \t]+-[ \t]+(?i:id)[ \t]*:[ \t]*(\S+)$")


def sections(prompt):
    """Returns the spec body, the IDs asked for, and whether the spec is whole."""
    body = prompt.split("## Spec file: ", 1)[1].split("\n", 1)[1]
    body, ask = body.rsplit("\n## What to answer\n", 1)
    m = re.search(r'answer it with the ID "([^"]+)"', ask)
    if m:
        return body, [m.group(1)], True
    ids = re.findall(r"^- (\S+)$", ask.split("and only these:", 1)[1].split("\n\n", 1)[0], re.M)
    return body, ids, False


def section_of(body, sid):
    lines = body.split("\n")
    start, level = None, 0
    for i, l in enumerate(lines):
        m = HEADING.match(l)
        if not m:
            continue
        if start is not None and len(m.group(1)) <= level:
            return "\n".join(lines[start:i])
        s = SCENARIO.search(m.group(2))
        if start is None and s and s.group(1) == sid:
            start, level = i, len(m.group(1))
    return "\n".join(lines[start:]) if start is not None else ""


def directive(text):
    m = re.search(r"<!--\s*fake:\s*([\w-]+)\s*-->", text)
    return m.group(1) if m else "pass"


def read_files(text):
    return sorted({p for p in re.findall(r"`([^`\s]+)`", text) if os.path.exists(p)})


def answer_for(sid, text):
    d = directive(text)
    read = read_files(text)
    if d == "random":  # FAKE_AGENT_SEED makes the sequence of a scenario's calls repeatable
        seed = os.environ.get("FAKE_AGENT_SEED")
        rng = random.Random("%s-%d" % (seed, count_call("random-" + sid))) if seed else random
        d = rng.choice(["pass", "fail"])
    if d == "skip":
        return None
    if d == "status-maybe":
        return {"id": sid, "status": "maybe", "files_read": read}
    if d == "fail":
        loc = (read[0] + ":3") if read else "nowhere"
        return {"id": sid, "status": "fail", "observed": "the code does not do what %s asks" % sid,
                "location": loc, "resolution": "make it do so", "files_read": read, "commands_run": ["grep -rn x ."]}
    return {"id": sid, "status": "pass", "observed": "it does", "location": read[0] if read else "",
            "resolution": "", "files_read": read, "commands_run": []}


def count_call(key):
    state = os.environ.get("FAKE_AGENT_STATE")
    if not state:
        return 1
    os.makedirs(state, exist_ok=True)
    path = os.path.join(state, re.sub(r"[^\w.-]", "_", key))
    n = int(open(path).read()) + 1 if os.path.exists(path) else 1
    with open(path, "w") as f:
        f.write(str(n))
    return n


def emit(cli, text, error=None):
    if cli == "claude":
        if error:
            print(json.dumps({"type": "result", "subtype": "success", "is_error": True, "result": error, "total_cost_usd": 0}))
        else:
            print(json.dumps({"type": "result", "subtype": "success", "is_error": False, "result": text,
                              "total_cost_usd": 0.0125, "num_turns": 3}))
    elif cli == "gemini":  # its error goes to stderr, exit 41, as the real one does
        if error:
            sys.stderr.write(json.dumps({"session_id": "fake", "error": {"type": "Error", "message": error, "code": 41}}, indent=2) + "\n")
            sys.exit(41)
        print(json.dumps({"session_id": "fake", "response": text, "stats": {}}, indent=2))
    elif cli == "codex":
        print(json.dumps({"type": "thread.started", "thread_id": "fake"}))
        print(json.dumps({"type": "turn.started"}))
        if error:
            print(json.dumps({"type": "turn.failed", "error": {"message": error}}))
            return
        print(json.dumps({"type": "item.completed", "item": {"id": "item_0", "type": "command_execution", "command": "bash -lc 'ls'",
                                                             "aggregated_output": "", "exit_code": 0, "status": "completed"}}))
        print(json.dumps({"type": "item.completed", "item": {"id": "item_1", "type": "agent_message", "text": text}}))
        print(json.dumps({"type": "turn.completed", "usage": {"input_tokens": 10, "output_tokens": 5}}))
    elif cli == "opencode":
        print(json.dumps({"type": "step_start", "part": {"type": "step-start"}}))
        if error:
            print(json.dumps({"type": "error", "error": {"name": "ProviderAuthError", "data": {"message": error}}}))
            return
        print(json.dumps({"type": "tool_use", "part": {"tool": "read", "state": {"input": {"filePath": "README.md"}}}}))
        print(json.dumps({"type": "text", "part": {"text": text}}))
        print(json.dumps({"type": "step_finish", "part": {"reason": "stop"}}))
    else:
        if error:
            sys.stderr.write(error + "\n")
            sys.exit(1)
        sys.stdout.write(text)


def main():
    cli, argv = sys.argv[1], sys.argv[2:]
    prompt, model, skip = PARSERS[cli](argv)
    body, ids, whole = sections(prompt)
    texts = {sid: (body if whole else section_of(body, sid)) for sid in ids}
    log = os.environ.get("FAKE_AGENT_LOG")
    if log:
        shown = [("PROMPT" if a == prompt else a) for a in argv]
        with open(log, "a") as f:
            f.write(json.dumps({"cli": cli, "argv": shown, "model": model, "skip": skip, "ids": ids}) + "\n")
    whole_call = [d for d in (directive(t) for t in texts.values()) if d in WHOLE]
    mode = whole_call[0] if whole_call else ""
    if mode == "hang":
        time.sleep(3600)
    if mode == "crash":
        sys.stderr.write("fake %s: segmentation fault (pretend)\n" % cli)
        sys.exit(3)
    if mode == "agent-error":  # as the real ones: claude and codex exit 1, gemini 41
        emit(cli, "", "Not logged in · Please run /login")
        sys.exit(1)
    if mode == "empty-then-pass" and count_call(cli + "-" + "-".join(ids)) == 1:
        if cli in ("codex", "opencode", "custom-agent"):
            return  # nothing at all
        emit(cli, "")
        return
    if mode == "garbage":
        emit(cli, "I looked around and everything seems fine, more or less. {not json")
        return
    answers = [a for a in (answer_for(sid, texts[sid]) for sid in ids) if a]
    text = json.dumps({"scenarios": answers})
    if any(directive(t) == "chatter" for t in texts.values()):
        text = "Let me look at the code.\nI read {the files}.\n\n```json\n" + json.dumps({"scenarios": answers}, indent=2) + "\n```\nDone."
    emit(cli, text)


if __name__ == "__main__":
    main()
