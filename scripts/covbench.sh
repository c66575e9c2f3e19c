#!/usr/bin/env bash
# scripts/covbench.sh — what `testdex run --coverage` costs beside a plain
# `testdex run`, per project: runs alternated (plain, coverage, plain, ...),
# REPS of each after one warm-up of each (build caches), medians of the wall
# and of the CPU time (user + system, the steadier one on a shared machine).
#
#   scripts/covbench.sh                      # the default projects below
#   scripts/covbench.sh DIR [DIR...]         # any project roots, any language
#   REPS=5 scripts/covbench.sh ~/.cache/testdex-fidelity/go-cmp
#   TESTDEX=/path/to/testdex scripts/covbench.sh DIR   # a binary already built
#
# Defaults: the fidelity projects of each framework that has them under
# ${TESTDEX_FIDELITY_DIR:-~/.cache/testdex-fidelity} (go-cmp, go-toml), and
# pflag copied from the Go module cache when it is there. Each project gets
# a cache folder of its own (TESTDEX_CACHE_DIR), removed at the end.
# docs/coverage.md's Go figures come from here. Extra arguments for both
# runs can be given in RUNARGS (for example RUNARGS="-j 2"). Go's default
# is one process per package; its process per test path is measured with
# TESTDEX_GO_COVERAGE=process in the environment (docs/coverage.md).
# Python's rows: scripts/pycovbench.py; JavaScript's: scripts/covbench_js.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
REPS="${REPS:-3}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
BIN="${TESTDEX:-}"
if [[ -z "$BIN" ]]; then
	BIN="$TMP/testdex"
	CGO_ENABLED=1 go build ${BENCH_BUILDFLAGS:-} -o "$BIN" ./cmd/testdex
fi

projects=("$@")
if [[ ${#projects[@]} -eq 0 ]]; then
	FID="${TESTDEX_FIDELITY_DIR:-$HOME/.cache/testdex-fidelity}"
	for p in go-cmp go-toml; do
		[[ -d "$FID/$p" ]] && projects+=("$FID/$p")
	done
	pf=$(ls -d "$(go env GOMODCACHE)"/github.com/spf13/pflag@v* 2>/dev/null | tail -1 || true)
	if [[ -n "$pf" ]]; then
		cp -r "$pf" "$TMP/pflag" && chmod -R u+w "$TMP/pflag"
		projects+=("$TMP/pflag")
	fi
fi

# timed OUT CMD... runs CMD in the project, appends "WALL CPU" to OUT.
timed() {
	local out=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$TMP/t" "$@" >/dev/null 2>&1 || true
	awk '{printf "%.2f %.2f\n", $1, $2+$3}' "$TMP/t" >>"$out"
}

# median FILE COLUMN prints the median of a column.
median() {
	sort -n -k"$2" "$1" | awk -v c="$2" '{v[NR]=$c} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'
}

echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3), load $(cut -d' ' -f1-3 /proc/loadavg), REPS=$REPS"
printf '%-16s %8s  %-22s %-22s %-14s\n' project results "run (wall, CPU s)" "--coverage (wall, CPU s)" "ratio wall, CPU"
for dir in "${projects[@]}"; do
	name=$(basename "$dir")
	export TESTDEX_CACHE_DIR="$TMP/cache-$name"
	mkdir -p "$TESTDEX_CACHE_DIR"
	: >"$TMP/plain" && : >"$TMP/cov"
	(cd "$dir" && "$BIN" run ${RUNARGS:-} >/dev/null 2>&1 || true)
	(cd "$dir" && "$BIN" run --coverage ${RUNARGS:-} >/dev/null 2>&1 || true)
	for _ in $(seq "$REPS"); do
		(cd "$dir" && timed "$TMP/plain" "$BIN" run ${RUNARGS:-})
		(cd "$dir" && timed "$TMP/cov" "$BIN" run --coverage ${RUNARGS:-})
	done
	results=$(cd "$dir" && "$BIN" run ${RUNARGS:-} 2>/dev/null | tail -1 | awk '{print $1+$3+$5}')
	pw=$(median "$TMP/plain" 1) pc=$(median "$TMP/plain" 2)
	cw=$(median "$TMP/cov" 1) cc=$(median "$TMP/cov" 2)
	printf '%-16s %8s  %-22s %-22s %-14s\n' "$name" "$results" "$pw, $pc" "$cw, $cc" \
		"$(awk -v a="$pw" -v b="$cw" -v c="$pc" -v d="$cc" 'BEGIN {printf "x%.2f, x%.2f", b/a, d/c}')"
done
