#!/usr/bin/env bash
# scripts/setup/shardcheck.sh installs the projects that scripts/shardbench.py
# checks sharding on besides the fidelity ones (scripts/setup/fidelity.sh):
# published packages that ship their tests, pinned by exact version, each
# with what its tests need. Each lands in
# ${TESTDEX_BENCH_DIR:-$HOME/.cache/testdex-bench}/NAME (where shardbench.py
# looks after the fidelity folder); a finished one gets the stamp
# .ok-NAME beside it and is left alone (idempotent), a half-done one is
# removed and installed again. Quiet on success; a failing step prints its
# log. A missing toolchain skips its projects.
#
#   pluggy, more-itertools, boltons, six, cachetools: pytest and
#   unittest suites from PyPI sdists (six's is one file of many tests,
#   which a split breaks into its tests by ID); jest-when: one Jest file of many top-level tests
#   (a split breaks it into its tests by ID); strsim: a crate whose
#   tests are its lib's unit tests and tests/lib.rs.
#
# The test suite needs none of them, and scripts/test.sh runs every setup
# script: this one installs only when TESTDEX_SHARDCHECK=1 (shardbench.py
# sets it when a project it is asked for is missing).
set -euo pipefail
[ "${TESTDEX_SHARDCHECK:-0}" = 1 ] || exit 0

root="${TESTDEX_BENCH_DIR:-$HOME/.cache/testdex-bench}"
mkdir -p "$root"
npm_before=2026-11-20
stamp_text="shardcheck setup 1"

me=shardcheck.sh
skipped=""
# shellcheck source=lib/install.sh
. "$(dirname "$0")/lib/install.sh"

# pip_sdist SPEC PKG...: the sdist unpacked here, a virtualenv in .venv
# with PKG... and the project itself (editable).
pip_sdist() {
	local spec=$1 dl
	shift
	dl=$(mktemp -d)
	step "pip download $spec" python3 -m pip download --quiet --disable-pip-version-check \
		--no-deps --no-binary :all: -d "$dl" "$spec"
	tar xzf "$dl"/*.tar.gz --strip-components=1
	rm -rf "$dl"
	step "venv for $spec" python3 -m venv .venv
	step "pip install $spec tests" .venv/bin/pip install --quiet --disable-pip-version-check "$@" -e .
}

pluggy() { pip_sdist pluggy==1.6.0 pytest==9.2.0; }
more_itertools() { pip_sdist more-itertools==10.8.0 pytest==9.2.0; }
six() { pip_sdist six==1.17.0 pytest==9.2.0; }
cachetools() { pip_sdist cachetools==6.2.1 pytest==9.2.0; }
boltons() { pip_sdist boltons==25.0.0 pytest==9.2.0; }

# jest_when: the tarball and Jest 27 (its devDependencies' range) alone,
# not its linters and mutation tester.
jest_when() {
	local tgz
	step "npm pack jest-when" npm pack jest-when@3.5.2 --silent
	tgz=$(ls ./*.tgz)
	tar xzf "$tgz" --strip-components=1
	rm -f "$tgz"
	step "npm install jest" npm install --no-audit --no-fund --ignore-scripts --loglevel=error \
		--before="$npm_before" --no-save --omit=dev jest@27.5.1
}

strsim() {
	local dl src
	dl=$(mktemp -d)
	mkdir -p "$dl/src"
	: >"$dl/src/lib.rs"
	printf '[package]\nname = "dl"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nstrsim = "=0.11.1"\n' >"$dl/Cargo.toml"
	step "cargo fetch strsim" cargo fetch --manifest-path "$dl/Cargo.toml"
	rm -rf "$dl"
	src=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/strsim-0.11.1 | head -1)
	cp -r "$src"/. .
	step "cargo test --no-run (strsim)" cargo test --no-run
}

status=0
if have python3; then
	install pluggy pluggy || status=1
	install more-itertools more_itertools || status=1
	install six six || status=1
	install cachetools cachetools || status=1
	install boltons boltons || status=1
fi
if have npm; then install jest-when jest_when || status=1; fi
if have cargo; then install strsim strsim || status=1; fi
exit $status
