#!/usr/bin/env bash
# scripts/test.sh runs testdex's whole test suite on a fresh machine.
# It installs nothing by hand-waving: every tool a test needs is either on
# the machine (Go, git) or installed here. Usage: scripts/test.sh [go test flags]
set -euo pipefail
cd "$(dirname "$0")/.."

export CGO_ENABLED="${CGO_ENABLED:-1}"
# The suite must not read or pollute the user's discovery cache.
export TESTDEX_CACHE_DIR="${TESTDEX_CACHE_DIR:-$(mktemp -d)/testdex-cache}"

# Each language's integration tests need its framework installed (pytest,
# jest, vitest, mocha, cargo, Maven and JUnit); scripts/setup/*.sh install
# them from the package registries, idempotently.
for setup in scripts/setup/*.sh; do
	[ -e "$setup" ] || continue
	echo "== $setup"
	bash "$setup"
done

echo "== go vet"
go vet ./...
echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' | grep -v '^examples/' | grep -v '/testdata/') 2>/dev/null || true)
if [ -n "$unformatted" ]; then
	echo "gofmt needed on:"; echo "$unformatted"; exit 1
fi
echo "== go test"
go test -count=1 -timeout 20m "$@" ./...
