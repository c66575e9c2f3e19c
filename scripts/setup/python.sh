#!/usr/bin/env bash
# Installs what the Python integration tests need: pytest 9 for python3
# (the tests skip only when python3 itself is absent). Idempotent and quiet:
# it does nothing when a pytest 9 is already importable.
set -euo pipefail

command -v python3 >/dev/null 2>&1 || { echo "python.sh: python3 not found; the Python integration tests will skip" >&2; exit 0; }

if python3 -c 'import pytest, sys; sys.exit(0 if pytest.__version__.split(".")[0] == "9" else 1)' 2>/dev/null; then
	exit 0
fi

pip() { python3 -m pip install --quiet --disable-pip-version-check --user "$@" 'pytest>=9,<10'; }
# A pyenv or virtualenv python refuses --user; a Debian one wants
# --break-system-packages for the user site.
pip 2>/dev/null || pip --break-system-packages 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check 'pytest>=9,<10'
