#!/usr/bin/env bash
# scripts/setup/rust.sh installs Debian 12's llvm-19 for Rust's per-test
# coverage: internal/lang/rust's TestCoverage checks testdex's own reading
# of rustc's profiles against llvm-cov export, and `testdex run --coverage`
# falls back to llvm-profdata and llvm-cov where it does not read a
# profile itself. rustc's raw profiles (format 10) need LLVM 19 or later;
# Debian's default (LLVM 14) refuses them. Idempotent: it does nothing
# when llvm-profdata-19 or a later one is on PATH. It installs only as
# root with apt-get; anywhere else it says how and goes on (the test's
# comparison then skips).
set -euo pipefail

for v in 22 21 20 19; do
	command -v "llvm-profdata-$v" >/dev/null 2>&1 && exit 0
done
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "rust.sh: no llvm-profdata-19; install it (Debian: apt-get install llvm-19) or Rust coverage cannot fall back to LLVM's tools" >&2
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# As browser.sh: update the package lists once when the first try fails;
# a machine without the archive goes on (the coverage test skips).
apt-get install -y -q llvm-19 >/dev/null 2>&1 ||
	{ apt-get update -q >/dev/null && apt-get install -y -q llvm-19 >/dev/null; } ||
	echo "rust.sh: apt-get could not install llvm-19; the Rust coverage test skips its comparison with llvm-cov" >&2
