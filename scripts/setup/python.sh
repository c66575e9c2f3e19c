#!/usr/bin/env bash
# Installs what the Python integration tests need for python3: pytest 9,
# and coverage 7 for the per-test coverage tests (`testdex run --coverage`)
# (the tests skip only when python3 itself is absent). Idempotent and
# quiet: it does nothing when both are already importable.
set -euo pipefail

command -v python3 >/dev/null 2>&1 || { echo "python.sh: python3 not found; the Python integration tests will skip" >&2; exit 0; }

if python3 -c 'import pytest, coverage, sys; sys.exit(0 if pytest.__version__.split(".")[0] == "9" and coverage.__version__.split(".")[0] == "7" else 1)' 2>/dev/null; then
	exit 0
fi

pip() { python3 -m pip install --quiet --disable-pip-version-check --user "$@" 'pytest>=9,<10' 'coverage>=7,<8'; }
# A pyenv or virtualenv python refuses --user; a Debian one wants
# --break-system-packages for the user site.
pip 2>/dev/null || pip --break-system-packages 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check 'pytest>=9,<10' 'coverage>=7,<8'
