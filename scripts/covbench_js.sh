#!/usr/bin/env bash
# scripts/covbench_js.sh measures what --coverage costs on JavaScript
# projects: for each DIR, ROUNDS (default 3) pairs of 'testdex run' and
# 'testdex run --coverage', alternated so that the machine's load falls on
# both alike, and the medians of wall and CPU (user + system of testdex and
# its children) of each, with their ratios and the number of tests that
# recorded coverage. A fresh cache folder per run keeps the listing out of
# the figures' differences (both runs list alike).
#
#   scripts/covbench_js.sh [-n ROUNDS] [-b TESTDEX] [-a BEFORE] [-w] DIR...
#
# With -w (warm), each mode keeps one cache folder across the rounds, after
# an unmeasured first round: the figures of a repeated run, whose listing
# and instrumented files (JavaScript's counting recorder) are cached.
#
# With -a, each round also runs 'BEFORE run --coverage' (an older testdex)
# between the two, and the before column and ratio are printed too.
#
# Extra environment (e.g. TESTDEX_COV_DETAILED=0) reaches the recorder.
set -euo pipefail
rounds=3
bin=testdex
before=
warm=
while getopts n:b:a:w o; do
	case $o in
	n) rounds=$OPTARG ;;
	b) bin=$OPTARG ;;
	a) before=$(command -v "$OPTARG" || realpath "$OPTARG") ;;
	w) warm=1 ;;
	*) exit 3 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: $0 [-n ROUNDS] [-b TESTDEX] [-a BEFORE] [-w] DIR..." >&2; exit 3; }
bin=$(command -v "$bin" || realpath "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

modes="plain cov"
[ -n "$before" ] && modes="plain before cov"
printf '%-28s %8s %8s %8s %8s %7s %7s %s\n' project wall cov-wall cpu cov-cpu x-wall x-cpu tests/covered
for dir in "$@"; do
	name=$(basename "$dir")
	first=0
	[ -n "$warm" ] && first=-1
	for ((i = first; i < rounds; i++)); do
		for mode in $modes; do
			flag= run=$bin
			[ $mode != plain ] && flag=--coverage
			[ $mode = before ] && run=$before
			cache=$(mktemp -d -p "$tmp")
			[ -n "$warm" ] && cache=$tmp/$name.$mode.cache && mkdir -p "$cache"
			(cd "$dir" && TESTDEX_CACHE_DIR=$cache /usr/bin/time -f '%e %U %S' -o "$tmp/time" \
				"$run" run $flag --json --timeout 30m >"$tmp/$mode.jsonl" 2>"$tmp/$mode.err") || true
			read -r wall user sys <"$tmp/time"
			[ "$i" -lt 0 ] && continue
			echo "$wall" >>"$tmp/$name.$mode.wall"
			echo "$user $sys" | awk '{print $1 + $2}' >>"$tmp/$name.$mode.cpu"
		done
	done
	tests=$(grep -c '"action":"\(pass\|fail\)"' "$tmp/cov.jsonl" || true)
	covered=$(grep -o 'coverage of [0-9,]* tests' "$tmp/cov.err" | tr -dc 0-9 || true)
	pw=$(median <"$tmp/$name.plain.wall")
	cw=$(median <"$tmp/$name.cov.wall")
	pc=$(median <"$tmp/$name.plain.cpu")
	cc=$(median <"$tmp/$name.cov.cpu")
	printf '%-28s %8.2f %8.2f %8.2f %8.2f %7.2f %7.2f %s\n' "$name" "$pw" "$cw" "$pc" "$cc" \
		"$(echo "$cw / $pw" | bc -l)" "$(echo "$cc / $pc" | bc -l)" "$tests/$covered"
	if [ -n "$before" ]; then
		bw=$(median <"$tmp/$name.before.wall")
		bc=$(median <"$tmp/$name.before.cpu")
		printf '%-28s %8s %8.2f %8s %8.2f %7.2f %7.2f\n' "  (before)" "" "$bw" "" "$bc" \
			"$(echo "$bw / $pw" | bc -l)" "$(echo "$bc / $pc" | bc -l)"
	fi
done
