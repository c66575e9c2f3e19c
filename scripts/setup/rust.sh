#!/usr/bin/env bash
# scripts/setup/rust.sh installs Debian 12's llvm-19 for Rust's per-test
# coverage (internal/lang/rust's TestCoverage and `testdex run --coverage`
# on cargo crates): rustc's raw profiles (format 10) need llvm-profdata
# and llvm-cov of LLVM 19 or later, and Debian's default (LLVM 14)
# refuses them. Idempotent: it does nothing when llvm-profdata-19 or a
# later one is on PATH. It installs only as root with apt-get; anywhere
# else it says how and goes on (the coverage test then skips).
set -euo pipefail

for v in 22 21 20 19; do
	command -v "llvm-profdata-$v" >/dev/null 2>&1 && exit 0
done
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "rust.sh: no llvm-profdata-19; install it (Debian: apt-get install llvm-19) or Rust coverage will say it cannot record" >&2
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# As browser.sh: update the package lists once when the first try fails;
# a machine without the archive goes on (the coverage test skips).
apt-get install -y -q llvm-19 >/dev/null 2>&1 ||
	{ apt-get update -q >/dev/null && apt-get install -y -q llvm-19 >/dev/null; } ||
	echo "rust.sh: apt-get could not install llvm-19; Rust coverage tests will skip" >&2
