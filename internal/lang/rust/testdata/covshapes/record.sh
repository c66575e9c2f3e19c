#!/bin/sh
# record.sh writes the recorded files of covprof_test.go into ../covshapes-rec
# (rustc 1.95, LLVM 22's raw profile format 10; llvm-19's tools read them):
#
#   cd internal/lang/rust/testdata/covshapes && sh record.sh
#
# For the lib's test binary: its __llvm_covmap and __llvm_covfun sections,
# each test's raw profile, what llvm-profdata reads from it (show --counts)
# and what llvm-cov exports (lcov).
set -e
PD=${LLVM_PROFDATA:-llvm-profdata-19}
COV=${LLVM_COV:-llvm-cov-19}
out=../covshapes-rec
tmp=$(mktemp -d)
mkdir -p "$out"
RUSTFLAGS="-C instrument-coverage" CARGO_TARGET_DIR="$tmp/target" cargo test --lib --no-run --message-format=json 2>/dev/null |
	sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' >"$tmp/bin"
bin=$(cat "$tmp/bin")
objcopy --dump-section __llvm_covmap="$out/covmap.bin" --dump-section __llvm_covfun="$out/covfun.bin" "$bin" "$tmp/stripped"
for t in test_branches test_loops test_generic_macro; do
	LLVM_PROFILE_FILE="$out/$t.profraw" "$bin" --exact "tests::$t" >/dev/null
	"$PD" show --all-functions --counts "$out/$t.profraw" >"$out/$t.show"
	"$PD" merge -sparse -o "$tmp/$t.profdata" "$out/$t.profraw"
	"$COV" export -format=lcov -instr-profile="$tmp/$t.profdata" \
		-ignore-filename-regex='/\.cargo/registry/|/\.cargo/git/|^/rustc/|/\.rustup/' "$bin" >"$out/$t.lcov"
done
rm -rf "$tmp"
