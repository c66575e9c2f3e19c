#!/usr/bin/env bash
# scripts/setup/terminal.sh installs Debian's tmux for the terminal test of
# testdex watch (internal/cli's TestWatchInTerminal and
# TestWatchInterrupt, which drive it in a real terminal and skip without
# it). Idempotent: it does nothing when tmux is on PATH. It installs only
# as root with apt-get; anywhere else it says how and goes on (the watch
# terminal tests then skip).
set -euo pipefail

command -v tmux >/dev/null 2>&1 && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "terminal.sh: no tmux; install it (Debian: apt-get install tmux) or the watch terminal tests will skip" >&2
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# The package lists may be missing or old on a fresh image: update once
# when the first try fails.
apt-get install -y -q tmux >/dev/null 2>&1 ||
	{ apt-get update -q >/dev/null && apt-get install -y -q tmux >/dev/null; } ||
	echo "terminal.sh: apt-get could not install tmux; the watch terminal tests will skip" >&2
