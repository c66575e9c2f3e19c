#!/usr/bin/env bash
# scripts/setup/node.sh installs the JavaScript test frameworks of the
# node fixtures (testdata/shapes/node/* for internal/lang/js's integration
# tests, testdata/run/node/* for the runners' end-to-end tests, each of
# jest, vitest, mocha and node-test, and testdata/run/node/jest30-ts: Jest
# 30 with ts-jest 29 for the coverage tests) from their committed
# package-lock.json files. Idempotent: a project whose node_modules matches its
# lock file is left alone. Needs node and npm; without them it does nothing
# (the integration tests then skip).
set -euo pipefail
cd "$(dirname "$0")/../../testdata"

if ! command -v npm >/dev/null 2>&1; then
	echo "node.sh: npm not found; skipping (the JavaScript integration tests will skip)" >&2
	exit 0
fi
for dir in {shapes,run}/node/{jest,vitest,mocha,node-test} run/node/jest30-ts; do
	[ -f "$dir/package-lock.json" ] || continue
	# npm writes node_modules/.package-lock.json; equal lock contents mean up to date.
	if [ -f "$dir/node_modules/.package-lock.json" ] &&
		[ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then
		continue
	fi
	# npm ci refuses a lock file that lacks the optional platform packages of
	# other systems (rollup's, for vitest), which npm 11 leaves out; npm
	# install --no-save then installs from the same lock without rewriting it.
	(cd "$dir" && { npm ci --no-audit --no-fund --loglevel=silent >/dev/null 2>&1 ||
		npm install --no-save --no-audit --no-fund --loglevel=error >/dev/null; })
done
