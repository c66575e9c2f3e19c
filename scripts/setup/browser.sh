#!/usr/bin/env bash
# scripts/setup/browser.sh installs Debian's chromium for the browser test
# of the coverage HTML site (coverage/htmlreport's
# TestBrowserClickShowsTests, which drives it headless and skips without
# it). Idempotent: it does nothing when chromium, chromium-browser or
# google-chrome is on PATH. It installs only as root with apt-get; anywhere
# else it says how and goes on (the browser test then skips).
set -euo pipefail

for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && exit 0
done
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "browser.sh: no chromium; install it (Debian: apt-get install chromium) or the coverage HTML browser test will skip" >&2
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# The package lists may be missing or old on a fresh image: update once
# when the first try fails. A machine without the archive goes on without
# a browser (the test skips and says why).
apt-get install -y -q chromium >/dev/null 2>&1 ||
	{ apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null; } ||
	echo "browser.sh: apt-get could not install chromium; the coverage HTML browser test will skip" >&2
