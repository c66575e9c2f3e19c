#!/usr/bin/env bash
# scripts/affectedbench.sh measures `testdex run --affected` after a
# one-line Go edit against `go test` of the packages the edit affects (the
# floor: what a person who knew the packages would run), on a real module
# nobody here wrote: github.com/pelletier/go-toml/v2 from the Go module
# proxy, copied into a git repository. Not part of the suite.
#
#   scripts/affectedbench.sh [REPS]      # default 5; prints best-of-REPS wall times
#
# Each repetition runs both commands with a warm Go build cache (a first
# untimed round builds everything), so the figures compare testdex's own
# cost (listing, impact graph, type check, event parsing) plus the same
# go test run. Benchmarks are not run by either (run --affected leaves
# them out without --bench).
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-5}
mod=github.com/pelletier/go-toml/v2
version=v2.4.3

bin=$(mktemp -d)/testdex
go build -o "$bin" ./cmd/testdex
src=$(go mod download -json "$mod@$version" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
work=$(mktemp -d)/go-toml
cp -r "$src" "$work"
chmod -R u+w "$work"
cd "$work"
git init -q && git add -A && git -c user.name=b -c user.email=b@b commit -qm base
export TESTDEX_CACHE_DIR="$work.cache"

# The edit: one statement of LocalDate.String, in the module's root package.
sed -i 's/return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day)/return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day+0)/' localtime.go
git diff --stat | tail -1

pkgs=$("$bin" affected --json | sed -n 's/.*"file":"\([^"]*\)".*/\1/p' | xargs -n1 dirname | sort -u | sed 's|^|./|')
echo "affected packages: $(echo $pkgs | wc -w) ($(echo $pkgs | tr '\n' ' '))"

# Warm-up: build the test binaries and fill testdex's caches.
go test -count=1 $pkgs >/dev/null 2>&1 || true
"$bin" run --affected >/dev/null 2>&1 || true

best() { sort -n | head -1; }
t() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N); echo "$e - $s" | bc; }
native=$(for _ in $(seq "$reps"); do t go test -count=1 $pkgs; done | best)
testdex=$(for _ in $(seq "$reps"); do t "$bin" run --affected; done | best)
listing=$(for _ in $(seq "$reps"); do t "$bin" affected; done | best)
printf 'go test of the affected packages: %.2f s\n' "$native"
printf 'testdex run --affected:           %.2f s (%.2fx)\n' "$testdex" "$(echo "$testdex / $native" | bc -l)"
printf 'testdex affected (selection only): %.2f s\n' "$listing"
