#!/usr/bin/env bash
# scripts/bench.sh — how fast testdex lists tests, beside the raw cost of
# reading the files and beside `go test -list` on the same packages.
#
#   scripts/bench.sh            # GOROOT/src and a sample of std packages
#   REPS=5 scripts/bench.sh
#
# Prints wall times (best of REPS). The README's figures come from here.
set -euo pipefail
cd "$(dirname "$0")/.."
REPS="${REPS:-3}"
SRC="$(go env GOROOT)/src"
BIN="$(mktemp -d)/testdex"
CACHE="$(mktemp -d)"
go build ${BENCH_BUILDFLAGS:-} -o "$BIN" ./cmd/testdex

# best CMD... prints the best wall time of REPS runs, in seconds.
best() {
	local b=""
	for _ in $(seq "$REPS"); do
		local s e
		s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N)
		b=$(echo "$s $e ${b:-999}" | awk '{d=$2-$1; print (d<$3)?d:$3}')
	done
	printf '%.3f' "$b"
}

echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3), load $(cut -d' ' -f1-3 /proc/loadavg)"
files=$(find "$SRC" -name '*_test.go' | wc -l)
mb=$(find "$SRC" -name '*_test.go' -print0 | du -cb --files0-from=- | tail -1 | awk '{printf "%.1f", $1/1048576}')
tests=$("$BIN" list --root "$SRC" --no-cache --json -q 2>/dev/null | wc -l)
echo "tree: $SRC, $files _test.go files ($mb MB), $tests records"
echo
echo "== all of GOROOT/src"
printf '%-52s %8s s\n' "baseline: walk + go/parser every _test.go, all cores" \
	"$(go test ${BENCH_BUILDFLAGS:-} ./index -run '^$' -bench GOROOTBaseline -benchtime ${REPS}x 2>/dev/null | awk '/ns\/op/{printf "%.3f", $3/1e9}')"
printf '%-52s %8s s\n' "testdex list --no-cache" "$(best "$BIN" list --root "$SRC" --no-cache -q)"
TESTDEX_CACHE_DIR="$CACHE" "$BIN" list --root "$SRC" -q >/dev/null 2>&1 || true
printf '%-52s %8s s\n' "testdex list (warm cache)" "$(TESTDEX_CACHE_DIR="$CACHE" best "$BIN" list --root "$SRC" -q)"

echo
PKGS="${PKGS:-strings sort bytes bufio errors path/filepath net/url encoding/json encoding/csv encoding/base64 text/template go/scanner go/parser regexp unicode/utf8 container/list math/big hash/crc32 io/fs html/template}"
n=$(echo $PKGS | wc -w)
dirs=""; for p in $PKGS; do dirs="$dirs $SRC/$p"; done
echo "== the same $n std packages"
printf '%-52s %8s s\n' "testdex list --no-cache" "$(best "$BIN" list --root "$SRC" --no-cache -q $dirs)"
printf '%-52s %8s s\n' "testdex list (warm cache)" "$(TESTDEX_CACHE_DIR="$CACHE" best "$BIN" list --root "$SRC" -q $dirs)"
printf '%-52s %8s s\n' "go test -list '.*' (warm build cache)" "$(cd "$SRC" && best go test -list '.*' $PKGS)"
GC="$(mktemp -d)"
s=$(date +%s.%N); (cd "$SRC" && GOCACHE="$GC" go test -list '.*' $PKGS >/dev/null 2>&1 || true); e=$(date +%s.%N)
printf '%-52s %8.3f s\n' "go test -list '.*' (empty build cache, once)" "$(echo "$s $e" | awk '{print $2-$1}')"
rm -rf "$GC" "$CACHE" "$(dirname "$BIN")"
