#!/usr/bin/env bash
# Installs what the Python integration tests need for python3: pytest 9,
# and coverage 7 for the per-test coverage tests (`testdex run --coverage`)
# (the tests skip only when python3 itself is absent). Then, when a Python
# 3.12 or later is on the machine (python3.12, python3.13, python3.14 on
# PATH, or pyenv's versions), a virtualenv of it with the same two, in
# ${XDG_CACHE_HOME:-$HOME/.cache}/testdex-python-sysmon, where
# internal/lang/python's TestSysmonCoverage finds it (the recorder takes
# sys.monitoring there). Idempotent and quiet: it does nothing when both
# are already importable in each.
set -euo pipefail

has() { "$1" -c 'import pytest, coverage, sys; sys.exit(0 if pytest.__version__.split(".")[0] == "9" and coverage.__version__.split(".")[0] == "7" else 1)' 2>/dev/null; }

command -v python3 >/dev/null 2>&1 || { echo "python.sh: python3 not found; the Python integration tests will skip" >&2; exit 0; }

if ! has python3; then
	pip() { python3 -m pip install --quiet --disable-pip-version-check --user "$@" 'pytest>=9,<10' 'coverage>=7,<8'; }
	# A pyenv or virtualenv python refuses --user; a Debian one wants
	# --break-system-packages for the user site.
	pip 2>/dev/null || pip --break-system-packages 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check 'pytest>=9,<10' 'coverage>=7,<8'
fi

# The virtualenv of a Python with sys.monitoring (3.12 or later).
venv="${XDG_CACHE_HOME:-$HOME/.cache}/testdex-python-sysmon"
has "$venv/bin/python" && exit 0
# A pyenv shim on PATH may name a version it does not run: each candidate
# is asked.
py=""
pyenv_root="${PYENV_ROOT:-$HOME/.pyenv}"
for c in python3.12 python3.13 python3.14 "$pyenv_root"/versions/3.1[2-9]*/bin/python; do
	if "$c" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; then
		py="$c"
		break
	fi
done
if [ -z "$py" ]; then
	echo "python.sh: no Python 3.12 or later found; TestSysmonCoverage will skip" >&2
	exit 0
fi
rm -rf "$venv"
"$py" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check 'pytest>=9,<10' 'coverage>=7,<8'
