#!/usr/bin/env bash
# scripts/mutbench.sh: the mutation benchmark of `testdex affected` (issue
# 8, "How to show it"). On real projects from the registries it applies
# seeded one-line mutations to non-test code, one at a time, on a copy of
# each project; runs the whole suite natively to find the tests that
# really fail; asks `testdex affected --files FILE --json`; and reports per
# project the safety (killed mutants whose failing tests were all
# selected: must be 100 %), the cost (mean share of the suite selected)
# and the selection time. Not part of scripts/test.sh: it takes minutes.
#
#   scripts/mutbench.sh                          # every project, 20 mutants each
#   scripts/mutbench.sh -n 5 -projects pflag,itsdangerous
#   scripts/mutbench.sh -json /tmp/mutbench.json # also every mutant, as JSON
#   scripts/mutbench.sh -mode package= -mode function=--level=function
#                                                # one column set per way of asking
#   scripts/mutbench.sh -change git              # the change as a git work tree, not --files
#   TESTDEX_REV=HEAD scripts/mutbench.sh         # testdex built from a revision, not the work tree
#   scripts/mutbench.sh setup                    # only install the projects
#
# Flags after the script's name go to the benchmark program
# (internal/mutbench/cmd/mutbench; -h lists them: -seed, -timeout, -keep,
# -q, ...). The markdown table goes to stdout, one line per mutant to
# stderr.
#
# Setup (idempotent; a finished project gets a stamp .ok-NAME beside it):
# the fidelity projects through scripts/setup/fidelity.sh
# (~/.cache/testdex-fidelity), and the benchmark's own into
# ${TESTDEX_MUTBENCH_DIR:-~/.cache/testdex-mutbench}: expr and pflag from
# the Go module proxy (expr without its two generated-test packages), and
# zod with 26 of its classic test files and vitest 3.2.4 (the fidelity
# zod keeps 3 test files, which reach little of its code). First setup,
# the registries' downloads cached: about 2 minutes beyond fidelity.sh's.
#
# Cost on this 2-core machine: about 30 minutes for all nine projects at
# 20 mutants each, while other work ran (expr 14 min: its suite re-links
# 53 test binaries per mutant; zod 6 min: 17 s a vitest run); the figures
# of a run are in internal/mutbench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

dir="${TESTDEX_MUTBENCH_DIR:-$HOME/.cache/testdex-mutbench}"
npm_before=2026-11-20 # as scripts/setup/fidelity.sh: the same tree on every machine
mkdir -p "$dir"
# step and install, shared with the setup scripts (install announces each
# project it installs).
root=$dir
stamp_text="mutbench setup 2"
me=mutbench.sh
skipped="; the benchmark will skip it"
announce=1
# shellcheck source=setup/lib/install.sh
. scripts/setup/lib/install.sh
bin=$(mktemp -d)
trap 'rm -rf "$log" "$bin"' EXIT # install.sh's trap removes $log alone

# go_module PATH@VERSION [DIR...]: the module as the proxy serves it, made
# writable, without the folders DIR, its packages and tests built once.
go_module() {
	local mod=$1 src
	shift
	src=$(cd / && GOFLAGS=-mod=mod go mod download -json "$mod" |
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	[ -n "$src" ] || { echo "mutbench.sh: go mod download $mod failed" >&2; return 1; }
	cp -r "$src"/. .
	chmod -R u+w .
	rm -rf "$@"
	step "go test -run ^$ ($mod)" go test -count=1 -run '^$' ./...
}

# expr without test/gen and test/fuzz: their 63,000 generated subtests
# (48 MB of go test -json) would take most of every mutant's run.
expr() { go_module github.com/expr-lang/expr@v1.17.8 test/gen test/fuzz; }
pflag() { go_module github.com/spf13/pflag@v1.0.9; }

# zod's tarball ships its sources and tests but neither vitest nor the
# monorepo's vitest config, whose "@zod/source" condition makes the tests'
# "zod/v4" imports load src/ rather than the compiled files: the config
# here sets just that. 26 of the 91 classic test files are kept (a run of
# all takes 59 s here; these 17 s): the ones of the common schema kinds.
zod() {
	local tgz keep f
	step "npm pack zod@4.6.7" npm pack zod@4.6.7 --silent
	tgz=$(ls ./*.tgz)
	tar xzf "$tgz" --strip-components=1
	rm -f "$tgz"
	step "npm install vitest (zod)" npm install --no-audit --no-fund --ignore-scripts --loglevel=error \
		--before="$npm_before" --no-save vitest@3.2.4
	keep=" string number object array enum literal union tuple record refine transform optional default error catch"
	keep+=" bigint date set map pipe coerce nullable primitive intersection discriminated-unions validations "
	while IFS= read -r f; do
		case "$f" in
		./src/v4/classic/tests/*.test.ts)
			local base=${f##*/}
			case "$keep" in *" ${base%.test.ts} "*) continue ;; esac
			;;
		esac
		rm -f "$f"
	done < <(find ./src -name '*.test.ts')
	cat >vitest.config.ts <<'EOF'
import { defineConfig } from "vitest/config";

// As zod's monorepo runs its tests: "zod/v4" resolves to the sources.
export default defineConfig({
  resolve: { conditions: ["@zod/source"] },
  ssr: { resolve: { conditions: ["@zod/source"] } },
});
EOF
	step "vitest run (zod)" node_modules/.bin/vitest run
}

setup() {
	local status=0
	bash scripts/setup/fidelity.sh || echo "mutbench.sh: scripts/setup/fidelity.sh did not install every project; the benchmark skips those" >&2
	if command -v go >/dev/null 2>&1; then
		install expr expr || status=1
		install pflag pflag || status=1
	fi
	if command -v npm >/dev/null 2>&1; then install zod zod || status=1; fi
	return $status
}

if [ "${1:-}" = setup ]; then
	setup
	exit
fi
setup || true
# testdex from the work tree, or with TESTDEX_REV=REV from that revision
# alone (git archive: other people's uncommitted work left out).
if [ -n "${TESTDEX_REV:-}" ]; then
	mkdir -p "$bin/src"
	git archive "$TESTDEX_REV" | tar -x -C "$bin/src"
	(cd "$bin/src" && go build -o "$bin/testdex" ./cmd/testdex)
	label="testdex at $(git rev-parse --short "$TESTDEX_REV")"
else
	go build -o "$bin/testdex" ./cmd/testdex
	label="testdex at $(git rev-parse --short HEAD)"
	if [ -n "$(git status --porcelain -- . ':!internal/mutbench' ':!scripts/mutbench.sh')" ]; then
		label+=" with the work tree's uncommitted changes"
	fi
fi
go build -o "$bin/mutbench" ./internal/mutbench/cmd/mutbench
export TESTDEX_CACHE_DIR="${TESTDEX_CACHE_DIR:-$bin/testdex-cache}"
"$bin/mutbench" -testdex "$bin/testdex" -label "$label" -dir "$dir" "$@"
