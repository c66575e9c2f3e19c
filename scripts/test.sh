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
# gofmt -l prints unformatted files on stdout; a file it cannot parse goes to
# stderr with a non-zero status. Both fail the suite (examples/ and testdata/
# hold deliberately broken Go and are left out).
gofiles=()
while IFS= read -r f; do
	[ -e "$f" ] && gofiles+=("$f") # a tracked file deleted in the work tree is not gofmt's to report
done < <(git ls-files '*.go' | grep -Ev '^examples/|(^|/)testdata/')
gofmt_err=$(mktemp)
gofmt_status=0
unformatted=""
if [ "${#gofiles[@]}" -gt 0 ]; then
	unformatted=$(gofmt -l "${gofiles[@]}" 2>"$gofmt_err") || gofmt_status=$?
fi
if [ "$gofmt_status" -ne 0 ] || [ -s "$gofmt_err" ]; then
	echo "gofmt failed (status $gofmt_status):"; cat "$gofmt_err"; rm -f "$gofmt_err"; exit 1
fi
rm -f "$gofmt_err"
if [ -n "$unformatted" ]; then
	echo "gofmt needed on:"; echo "$unformatted"; exit 1
fi
echo "== go test"
go test -count=1 -timeout 20m "$@" ./...
