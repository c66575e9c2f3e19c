#!/usr/bin/env bash
# Unpacks pytest-xdist and execnet (their wheels, from PyPI) into a folder
# of their own, for the tests that run a pytest project under xdist with
# PYTHONPATH pointing there (cmd/testdex TestShardProjectRulesXdist):
# python3's own site-packages stay without xdist, so every other pytest
# run of the suite stays as it is. Idempotent and quiet.
set -euo pipefail

command -v python3 >/dev/null 2>&1 || { echo "xdist.sh: python3 not found; the Python integration tests will skip" >&2; exit 0; }
dir="${TESTDEX_XDIST_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/testdex-setup/xdist}"
if PYTHONPATH="$dir" python3 -c 'import xdist, execnet' 2>/dev/null; then
	exit 0
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --quiet --disable-pip-version-check --no-deps -d "$tmp" 'pytest-xdist>=3.5,<4' 'execnet>=2.1,<3'
mkdir -p "$dir"
for w in "$tmp"/*.whl; do
	python3 -m zipfile -e "$w" "$dir"
done
PYTHONPATH="$dir" python3 -c 'import xdist, execnet'
