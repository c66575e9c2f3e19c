#!/usr/bin/env bash
# scripts/bench.sh — how fast testdex lists tests, beside the raw cost of
# reading the files and beside `go test -list` on the same packages; and
# how fast `testdex affected` answers for a one-file change.
#
#   scripts/bench.sh            # GOROOT/src, a sample of std packages, affected
#   REPS=5 scripts/bench.sh
#   SECTIONS=affected scripts/bench.sh   # only one part: list, python, affected, coverage
#   PYTEST_PKG=DIR SECTIONS=python scripts/bench.sh   # CPython's Lib/test (DIR is the
#                                        # test package; default: python3's own)
#   BENCH_PREFIX="chrt -f 10" SECTIONS=python scripts/bench.sh   # at real-time
#                                        # priority (root): a busy machine as if idle
#   COVBENCH_PROJECTS="DIR DIR" SECTIONS=coverage scripts/bench.sh
#
# Prints wall times (best of REPS; GOROOT's rows with that run's CPU
# time). docs/accuracy.md's figures come from here.
# The affected part copies GOROOT/src into a git work tree (a function-level
# answer needs git) and, when present, the mutation benchmark's pflag and
# zod (scripts/mutbench.sh setup) into temporary folders. The coverage part
# is scripts/covbench.sh (run against run --coverage, paired, per project).
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

# bestcpu CMD... prints the best wall time of REPS runs and that run's CPU
# time (user + system; on a busy machine the CPU time is the steadier one).
bestcpu() {
	local b="" c="" t; t="$(mktemp)"
	for _ in $(seq "$REPS"); do
		/usr/bin/time -f '%e %U %S' -o "$t" "$@" >/dev/null 2>&1 || true
		read -r w u s < <(tail -1 "$t")
		if [[ -z "$b" ]] || awk "BEGIN{exit !($w < $b)}"; then b=$w; c=$(awk "BEGIN{print $u + $s}"); fi
	done
	rm -f "$t"
	printf '%6.2f s wall %6.2f s cpu' "$b" "$c"
}

echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3), load $(cut -d' ' -f1-3 /proc/loadavg)"
SECTIONS="${SECTIONS:-list python affected coverage}"
if [[ " $SECTIONS " == *" list "* ]]; then
files=$(find "$SRC" -name '*_test.go' | wc -l)
mb=$(find "$SRC" -name '*_test.go' -print0 | du -cb --files0-from=- | tail -1 | awk '{printf "%.1f", $1/1048576}')
tests=$("$BIN" list --root "$SRC" --no-cache --json -q 2>/dev/null | wc -l)
echo "tree: $SRC, $files _test.go files ($mb MB), $tests records"
echo
echo "== all of GOROOT/src (best of $REPS wall, with that run's CPU time, user + system)"
go test -c ${BENCH_BUILDFLAGS:-} -o "$(dirname "$BIN")/index.test" ./index >/dev/null
printf '%-58s %s\n' "floor: walk + go/parser every _test.go, all cores" \
	"$(bestcpu "$(dirname "$BIN")/index.test" -test.run '^$' -test.bench GOROOTBaseline -test.benchtime 1x)"
# The listings are read through a pipe, as a consumer of --json reads
# them (CPU time includes bash's and cat's, a few milliseconds).
printf '%-58s %s\n' "testdex list --json --no-cache | cat" "$(bestcpu bash -c "\"$BIN\" list --root \"$SRC\" --no-cache --json -q | cat")"
printf '%-58s %s\n' "testdex list --no-cache (tree) | cat" "$(bestcpu bash -c "\"$BIN\" list --root \"$SRC\" --no-cache -q | cat")"
TESTDEX_CACHE_DIR="$CACHE" "$BIN" list --root "$SRC" -q >/dev/null 2>&1 || true
printf '%-58s %s\n' "testdex list --json (warm cache) | cat" "$(TESTDEX_CACHE_DIR="$CACHE" bestcpu bash -c "\"$BIN\" list --root \"$SRC\" --json -q | cat")"
printf '%-58s %s\n' "testdex list (tree, warm cache) | cat" "$(TESTDEX_CACHE_DIR="$CACHE" bestcpu bash -c "\"$BIN\" list --root \"$SRC\" -q | cat")"
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
rm -rf "$GC"
fi

if [[ " $SECTIONS " == *" python "* ]]; then
PKG="${PYTEST_PKG:-$(python3 -c 'import os, test; print(os.path.dirname(test.__file__))' 2>/dev/null || true)}"
if [[ -d "$PKG" ]]; then
	# A copy holding only the test package, as scripts/pyaccuracy.py's
	# cpython:DIR: the interpreter's own folder holds the whole library.
	PYW="$(mktemp -d)"
	cp -r "$PKG" "$PYW/test"
	find "$PYW" -name __pycache__ -prune -exec rm -rf {} +
	PC="$(mktemp -d)"
	echo
	echo "== CPython's Lib/test ($(find "$PYW/test" -name '*.py' | wc -l) .py files; best of $REPS wall, with that run's CPU time)"
	# shellcheck disable=SC2086 # BENCH_PREFIX is a command and its arguments
	printf '%-58s %s\n' "testdex list --json --no-cache | cat" "$(bestcpu ${BENCH_PREFIX:-} bash -c "\"$BIN\" list --root \"$PYW\" --no-cache --json -q | cat")"
	TESTDEX_CACHE_DIR="$PC" "$BIN" list --root "$PYW" -q >/dev/null 2>&1 || true
	# shellcheck disable=SC2086
	printf '%-58s %s\n' "testdex list --json (warm cache) | cat" "$(TESTDEX_CACHE_DIR="$PC" bestcpu ${BENCH_PREFIX:-} bash -c "\"$BIN\" list --root \"$PYW\" --json -q | cat")"
	rm -rf "$PYW" "$PC"
else
	echo "(no CPython test package: set PYTEST_PKG)"
fi
fi

# edit_func FILE NAME adds a statement to the body of the function NAME
# (its "func ... NAME(...) ... {" line): a change function level narrows to it.
edit_func() {
	sed -i "0,/^func .*$2(.*{\$/s//&\n\t_ = 0/" "$1"
	grep -q '^	_ = 0$' "$1" || { echo "bench: no func $2 in $1" >&2; exit 1; }
}

# gitcopy SRC DST copies a tree into a fresh git work tree with one commit.
gitcopy() {
	cp -r "$1" "$2"
	git -C "$2" init -q
	git -C "$2" add -A
	git -C "$2" -c user.name=bench -c user.email=bench@localhost commit -qm base
}

# affected_rows LABEL ARGS... prints the no-cache and warm-cache times of
# `testdex affected ARGS`, with the answer's closing line.
affected_rows() {
	local label="$1"; shift
	local ac; ac="$(mktemp -d)"
	printf '%-62s %s\n' "$label, --no-cache" "$(bestcpu "$BIN" affected --no-cache "$@")"
	TESTDEX_CACHE_DIR="$ac" "$BIN" affected "$@" >/dev/null 2>&1 || true
	printf '%-62s %s\n' "$label, warm cache" "$(TESTDEX_CACHE_DIR="$ac" bestcpu "$BIN" affected "$@")"
	printf '%-62s %s\n' "" "($(TESTDEX_CACHE_DIR="$ac" "$BIN" affected "$@" 2>/dev/null | tail -1))"
	rm -rf "$ac"
}

if [[ " $SECTIONS " == *" affected "* ]]; then
WORK="$(mktemp -d)"
echo
echo "== testdex affected, one changed file"
affected_rows "GOROOT/src --files strings/strings.go (package)" --root "$SRC" --files strings/strings.go
gitcopy "$SRC" "$WORK/goroot"
edit_func "$WORK/goroot/strings/strings.go" Repeat
affected_rows "GOROOT/src git, strings.Repeat edited (function)" --root "$WORK/goroot"
git -C "$WORK/goroot" checkout -q -- .
edit_func "$WORK/goroot/net/url/url.go" Parse
affected_rows "GOROOT/src git, url.Parse edited (function)" --root "$WORK/goroot"
MB="${TESTDEX_MUTBENCH_DIR:-$HOME/.cache/testdex-mutbench}"
if [[ -d "$MB/pflag" ]]; then
	gitcopy "$MB/pflag" "$WORK/pflag"
	edit_func "$WORK/pflag/flag.go" Parse
	affected_rows "pflag git, FlagSet.Parse edited (function)" --root "$WORK/pflag"
else
	echo "(no $MB/pflag: run scripts/mutbench.sh setup for the small projects)"
fi
if [[ -d "$MB/zod" ]]; then
	cp -r "$MB/zod" "$WORK/zod"
	affected_rows "zod --files src/v4/core/util.ts (module)" --root "$WORK/zod" --files src/v4/core/util.ts
fi
rm -rf "$WORK"
fi
if [[ " $SECTIONS " == *" coverage "* ]]; then
	echo
	echo "== testdex run --coverage against testdex run"
	# shellcheck disable=SC2086 # the list is space-separated
	TESTDEX="$BIN" scripts/covbench.sh ${COVBENCH_PROJECTS:-}
fi
rm -rf "$CACHE" "$(dirname "$BIN")"
