#!/usr/bin/env bash
# scripts/bench.sh — how fast testdex lists tests, beside the raw cost of
# reading the files and beside `go test -list` on the same packages; and
# how fast `testdex affected` answers for a one-file change.
#
#   scripts/bench.sh            # all sections: list, python, packages, affected, coverage
#   SECTIONS="list python" scripts/bench.sh   # the listing's speed only
#   SECTIONS=packages scripts/bench.sh   # 20 std packages: testdex list against go test -list
#   REPS=9 scripts/bench.sh     # rounds (default 5)
#   PYTEST_PKG=DIR SECTIONS=python scripts/bench.sh   # CPython's Lib/test (DIR is the
#                                        # test package; default: python3's own)
#   BENCH_PREFIX= scripts/bench.sh       # at normal priority (the default, as
#                                        # root, is real-time: chrt -f 10)
#   COVBENCH_PROJECTS="DIR DIR" SECTIONS=coverage scripts/bench.sh
#
# The listing's speed (sections list and python): the floor (walk GOROOT/src
# and go/parser every _test.go on all cores), testdex list of GOROOT/src and
# of CPython's Lib/test, JSON and tree view, cold (--no-cache) and warm, in
# REPS interleaved rounds; each row's median wall (best in brackets),
# median CPU (user + system), ratio to the floor and goal. As root it runs
# at real-time priority (chrt -f 10), so a shared machine's other work
# does not take the cores; the load before and after is printed. The other
# rows are best of REPS wall. docs/accuracy.md's figures come from here.
# The affected part copies GOROOT/src into a git work tree (a function-level
# answer needs git) and, when present, the mutation benchmark's pflag and
# zod (scripts/mutbench.sh setup) into temporary folders. The coverage part
# is scripts/covbench.sh (run against run --coverage, paired, per project).
set -euo pipefail
cd "$(dirname "$0")/.."
REPS="${REPS:-5}"
SRC="$(go env GOROOT)/src"
BIN="$(mktemp -d)/testdex"
CACHE="$(mktemp -d)"
PYW="" PC="" SPEED=""
# The temporary folders go when the script ends, also when interrupted.
trap 'rm -rf "$CACHE" "$(dirname "$BIN")" ${PYW:+"$PYW"} ${PC:+"$PC"} ${SPEED:+"$SPEED"}' EXIT
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

# Real-time priority (root) lets a busy machine's benchmark take both
# cores ahead of other work, as if idle; BENCH_PREFIX= (empty) turns it off.
if [[ -z "${BENCH_PREFIX+set}" ]]; then
	BENCH_PREFIX=""
	if [[ "$(id -u)" == 0 ]] && chrt -f 10 true 2>/dev/null; then BENCH_PREFIX="chrt -f 10"; fi
fi

# The listing's speed: the floor and the listings of GOROOT/src (section
# list) and of CPython's Lib/test (section python), JSON and tree view,
# cold and warm, run in interleaved rounds (one of each per round, the
# order rotated) so a slow spell of a shared machine falls on every row
# rather than on one. Each row prints the median wall time (best in
# brackets) and the median CPU time (user + system), and its goal.
SPEED_ROWS=()   # the rows' keys, in print order
declare -A SPEED_CMD=() SPEED_LABEL=() SPEED_GOAL=()

# speed_row KEY LABEL GOAL CMD adds a row; CMD is a bash command line run
# under BENCH_PREFIX; GOAL is "floor:X" (within X times the floor's median,
# wall and CPU), "wall:S" (a median wall of at most S seconds) or "-".
speed_row() {
	SPEED_ROWS+=("$1")
	SPEED_LABEL[$1]="$2"
	SPEED_GOAL[$1]="$3"
	SPEED_CMD[$1]="$4"
}

# speed_once KEY runs a row's command once and appends "wall cpu" to its
# file (bash's time: milliseconds, where /usr/bin/time gives hundredths).
speed_once() {
	local TIMEFORMAT='%3R %3U %3S' t
	# shellcheck disable=SC2086 # BENCH_PREFIX is a command and its arguments
	t=$({ time $BENCH_PREFIX bash -c "${SPEED_CMD[$1]}" >/dev/null 2>&1; } 2>&1) || true
	echo "$t" | awk '{printf "%s %.3f\n", $1, $2 + $3}' >>"$SPEED/$1"
}

# speed_stat KEY COLUMN prints "median best" of a row's column (1 wall, 2 CPU).
speed_stat() {
	cut -d' ' -f"$2" "$SPEED/$1" | sort -g | awk '{v[NR]=$1} END {
		m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2; printf "%.3f %.3f\n", m, v[1] }'
}

speed_run() {
	SPEED="$(mktemp -d)"
	local keys=("${SPEED_ROWS[@]}") r i n
	n=${#keys[@]}
	echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); prefix: ${BENCH_PREFIX:-none}; $REPS rounds of $n rows"
	for r in $(seq 0 $((REPS - 1))); do
		for i in $(seq 0 $((n - 1))); do speed_once "${keys[$(((i + r) % n))]}"; done
	done
	echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
	printf '%-46s %15s %7s %15s  %s\n' "median of $REPS (best)" "wall, s" "CPU, s" "÷ floor (wall, CPU)" "goal"
	local fw="" fc=""
	for key in "${SPEED_ROWS[@]}"; do
		local label="${SPEED_LABEL[$key]}" goal="${SPEED_GOAL[$key]}"
		read -r w wb < <(speed_stat "$key" 1)
		read -r c _ < <(speed_stat "$key" 2)
		[[ "$key" == floor ]] && { fw=$w; fc=$c; }
		local ratio="" verdict=""
		case "$goal" in
		floor:*)
			ratio=$(awk "BEGIN{printf \"%.2fx, %.2fx\", $w/$fw, $c/$fc}")
			verdict=$(awk "BEGIN{g=${goal#floor:}; printf \"<= %sx: wall %s, CPU %s\", g, ($w/$fw<=g)?\"met\":\"MISSED\", ($c/$fc<=g)?\"met\":\"MISSED\"}")
			;;
		wall:*)
			verdict=$(awk "BEGIN{g=${goal#wall:}; printf \"<= %s s: %s\", g, ($w<=g)?\"met\":\"MISSED\"}")
			;;
		esac
		printf '%-46s %6.3f (%6.3f) %7.3f %15s  %s\n' "$label" "$w" "$wb" "$c" "$ratio" "$verdict"
	done
	rm -rf "$SPEED"
}

echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3), load $(cut -d' ' -f1-3 /proc/loadavg)"
SECTIONS="${SECTIONS:-list python packages affected coverage}"
if [[ " $SECTIONS " == *" list "* ]]; then
	files=$(find "$SRC" -name '*_test.go' | wc -l)
	mb=$(find "$SRC" -name '*_test.go' -print0 | du -cb --files0-from=- | tail -1 | awk '{printf "%.1f", $1/1048576}')
	tests=$("$BIN" list --root "$SRC" --no-cache --json -q 2>/dev/null | wc -l)
	echo "GOROOT: $SRC, $files _test.go files ($mb MB), $tests records"
	go test -c ${BENCH_BUILDFLAGS:-} -o "$(dirname "$BIN")/index.test" ./index >/dev/null
	# The listings are read through a pipe, as a consumer reads them (CPU
	# time includes bash's and cat's, a few milliseconds).
	speed_row floor "floor: walk + go/parser every _test.go" - \
		"\"$(dirname "$BIN")/index.test\" -test.run '^\$' -test.bench GOROOTBaseline -test.benchtime 1x"
	speed_row gojc "GOROOT list --json --no-cache | cat" floor:1.2 "\"$BIN\" list --root \"$SRC\" --no-cache --json -q | cat"
	speed_row gotc "GOROOT list --no-cache (tree) | cat" floor:1.2 "\"$BIN\" list --root \"$SRC\" --no-cache -q | cat"
	TESTDEX_CACHE_DIR="$CACHE" "$BIN" list --root "$SRC" -q >/dev/null 2>&1 || true
	speed_row gojw "GOROOT list --json, warm | cat" floor:0.3 "TESTDEX_CACHE_DIR=\"$CACHE\" \"$BIN\" list --root \"$SRC\" --json -q | cat"
	speed_row gotw "GOROOT list (tree), warm | cat" floor:0.3 "TESTDEX_CACHE_DIR=\"$CACHE\" \"$BIN\" list --root \"$SRC\" -q | cat"
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
		echo "Lib/test: $PKG, $(find "$PYW/test" -name '*.py' | wc -l) .py files, $("$BIN" list --root "$PYW" --no-cache --json -q 2>/dev/null | wc -l) records"
		speed_row pyjc "Lib/test list --json --no-cache | cat" wall:1.0 "\"$BIN\" list --root \"$PYW\" --no-cache --json -q | cat"
		speed_row pytc "Lib/test list --no-cache (tree) | cat" wall:1.0 "\"$BIN\" list --root \"$PYW\" --no-cache -q | cat"
		TESTDEX_CACHE_DIR="$PC" "$BIN" list --root "$PYW" -q >/dev/null 2>&1 || true
		speed_row pyjw "Lib/test list --json, warm | cat" wall:0.2 "TESTDEX_CACHE_DIR=\"$PC\" \"$BIN\" list --root \"$PYW\" --json -q | cat"
		speed_row pytw "Lib/test list (tree), warm | cat" wall:0.2 "TESTDEX_CACHE_DIR=\"$PC\" \"$BIN\" list --root \"$PYW\" -q | cat"
	else
		echo "(no CPython test package: set PYTEST_PKG)"
	fi
fi
if [[ ${#SPEED_ROWS[@]} -gt 0 ]]; then
	echo
	echo "== the listing's speed"
	speed_run
fi
if [[ " $SECTIONS " == *" packages "* ]]; then
	PKGS="${PKGS:-strings sort bytes bufio errors path/filepath net/url encoding/json encoding/csv encoding/base64 text/template go/scanner go/parser regexp unicode/utf8 container/list math/big hash/crc32 io/fs html/template}"
	n=$(echo $PKGS | wc -w)
	dirs=""; for p in $PKGS; do dirs="$dirs $SRC/$p"; done
	echo
	echo "== the same $n std packages (best of $REPS wall)"
	printf '%-52s %8s s\n' "testdex list --no-cache" "$(best "$BIN" list --root "$SRC" --no-cache -q $dirs)"
	printf '%-52s %8s s\n' "testdex list (warm cache)" "$(TESTDEX_CACHE_DIR="$CACHE" best "$BIN" list --root "$SRC" -q $dirs)"
	printf '%-52s %8s s\n' "go test -list '.*' (warm build cache)" "$(cd "$SRC" && best go test -list '.*' $PKGS)"
	GC="$(mktemp -d)"
	s=$(date +%s.%N); (cd "$SRC" && GOCACHE="$GC" go test -list '.*' $PKGS >/dev/null 2>&1 || true); e=$(date +%s.%N)
	printf '%-52s %8.3f s\n' "go test -list '.*' (empty build cache, once)" "$(echo "$s $e" | awk '{print $2-$1}')"
	rm -rf "$GC"
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
