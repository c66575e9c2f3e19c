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

# go vet, gofmt and go mod tidy are tests of their own (hygiene_test.go),
# so that go test ./... alone holds them.
echo "== go test"
go test -count=1 -timeout 20m "$@" ./...
