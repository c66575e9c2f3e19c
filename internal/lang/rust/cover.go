package rust

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/testdex/testdex/internal/lang"
)

// Per-test coverage (`testdex run --coverage`). LLVM's profiles are per
// process, so each test runs in its own process, as Go's coverage does:
//
//  1. each cargo test command of the plain run (RunCommands) becomes one
//     sh script that builds its test binaries with RUSTFLAGS="-C
//     instrument-coverage" (cargo test --no-run, same flags) into a
//     target folder of testdex's own (TARGET/testdex-coverage: the flag
//     would otherwise rebuild the user's target), and reads their paths
//     from cargo's "Executable" lines;
//  2. per binary, in cargo's order, it lists the tests the command's
//     libtest filters select (BIN --list --format terse FILTERS, its
//     profile to PREFIX.B.list.profraw, not the crate folder), then runs
//     each in its own process (BIN --exact NAME, in the crate folder, as
//     cargo does) with LLVM_PROFILE_FILE=PREFIX.B.J.profraw;
//  3. the same libtest parser reads the script's output, told where each
//     binary starts (a "testdex-cover: binary N" line stands for the
//     binary's "running N tests"; each process's own "running 1 test" is
//     dropped), so results are the plain run's; at Close it reads each
//     binary's coverage mapping once and each test's raw profile into the
//     test's ActionCovered (covlines.go: lines as llvm-cov export gives
//     them), lines of files under the project only, and where it does not
//     read them, passes them through LLVM's tools (cover_tools.go).
//
// Doc tests record nothing: rustdoc compiles each into a binary of its
// own that testdex does not see; their commands (cargo test --doc) run as
// in the plain run. Targets without libtest harness run plain too. libtest
// filters the user gives after "--" apply to the listing; the per-test
// runs get the user's other libtest flags.
//
// The tools, where needed, must read the profile format of rustc's LLVM
// (rustc 1.95 is LLVM 22, raw format 10): Debian 12's default
// llvm-profdata (LLVM 14) cannot, so an unversioned llvm-profdata is never
// taken; see llvmTools.

// Granularity is "test": each libtest test runs in its own process.
func (Runner) Granularity() string { return "test" }

// CoverageCheck reports why the crate cannot record coverage: cargo is
// missing. LLVM's tools are needed only for profiles testdex does not
// read itself (cover_tools.go), and their absence is said then.
func (Runner) CoverageCheck(_ *lang.Project, o lang.RunOptions) error {
	if _, err := lookPath("cargo", o.Getenv("PATH")); err != nil {
		return fmt.Errorf("%w: cargo (needed for coverage; install Rust with rustup or put cargo on PATH)", lang.ErrNotInstalled)
	}
	return nil
}

// minLLVM is the oldest LLVM whose llvm-profdata reads rustc 1.95's raw
// profiles (format version 10); maxLLVM the newest looked for by name.
const minLLVM, maxLLVM = 19, 30

// llvmTools finds llvm-profdata and llvm-cov, in this order: the
// LLVM_PROFDATA and LLVM_COV variables (both, taken as they are); rustup's
// llvm-tools component of a toolchain (same LLVM as its rustc); versioned
// names on PATH (llvm-profdata-22 ... -19, newest first); Debian's
// /usr/lib/llvm-N/bin. The error says how to install them.
func llvmTools(o lang.RunOptions) (profdata, cov string, err error) {
	if pd, c := o.Getenv("LLVM_PROFDATA"), o.Getenv("LLVM_COV"); pd != "" && c != "" {
		return pd, c, nil
	}
	if pd, c, ok := rustupTools(o); ok {
		return pd, c, nil
	}
	for v := maxLLVM; v >= minLLVM; v-- {
		n := strconv.Itoa(v)
		pd, err1 := lookPath("llvm-profdata-"+n, o.Getenv("PATH"))
		c, err2 := lookPath("llvm-cov-"+n, o.Getenv("PATH"))
		if err1 == nil && err2 == nil {
			return pd, c, nil
		}
		dir := "/usr/lib/llvm-" + n + "/bin"
		if isExec(filepath.Join(dir, "llvm-profdata")) && isExec(filepath.Join(dir, "llvm-cov")) {
			return filepath.Join(dir, "llvm-profdata"), filepath.Join(dir, "llvm-cov"), nil
		}
	}
	return "", "", fmt.Errorf("%w: llvm-profdata and llvm-cov of LLVM %d or later (needed to read rustc's coverage profiles; Debian's default LLVM 14 cannot): apt-get install llvm-19, or rustup component add llvm-tools, or set LLVM_PROFDATA and LLVM_COV", lang.ErrNotInstalled, minLLVM)
}

// rustupTools finds rustup's llvm-tools in the toolchains folder
// (RUSTUP_HOME, else ~/.rustup): TOOLCHAIN/lib/rustlib/HOST/bin. With
// several toolchains it takes the first that has them, which may not be
// the one cargo runs (their LLVM versions rarely differ in profile
// format).
func rustupTools(o lang.RunOptions) (profdata, cov string, ok bool) {
	home := o.Getenv("RUSTUP_HOME")
	if home == "" && o.Getenv("HOME") != "" {
		home = filepath.Join(o.Getenv("HOME"), ".rustup")
	}
	if home == "" {
		return "", "", false
	}
	matches, _ := filepath.Glob(filepath.Join(home, "toolchains", "*", "lib", "rustlib", "*", "bin", "llvm-profdata"))
	slices.Sort(matches)
	for _, pd := range matches {
		if c := filepath.Join(filepath.Dir(pd), "llvm-cov"); isExec(c) {
			return pd, c, true
		}
	}
	return "", "", false
}

func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// lookPath finds a program on the given PATH.
func lookPath(name, pathEnv string) (string, error) {
	for _, dir := range filepath.SplitList(pathEnv) {
		if p, err := exec.LookPath(filepath.Join(dir, name)); err == nil {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

// coverScriptName is $0 of a coverage script: NewParser knows its
// commands by it.
const coverScriptName = "testdex-cargo-cover"

// coverCommands turns the plain run's commands into a coverage run's (see
// above): each cargo test command of test binaries becomes a script, with
// the doc tests a plain command of their own.
func (r Runner) coverCommands(p *lang.Project, plain []*lang.Command, o lang.RunOptions) ([]*lang.Command, error) {
	profdata, cov, _ := llvmTools(o) // only where testdex cannot read the profiles itself
	rt := r.readRunTargets()
	cargoExtra, testExtra := splitExtra(o.Extra)
	env := []string{
		"CARGO_TARGET_DIR=" + r.coverTargetDir(o),
		"RUSTFLAGS=" + strings.TrimSpace(o.Getenv("RUSTFLAGS")+" -C instrument-coverage"),
	}
	if enc, ok := lookupEnv(o.Env, "CARGO_ENCODED_RUSTFLAGS"); ok { // it outranks RUSTFLAGS
		env = append(env, "CARGO_ENCODED_RUSTFLAGS="+strings.TrimPrefix(enc+"\x1f-C\x1finstrument-coverage", "\x1f"))
	}
	var out []*lang.Command
	for i, c := range plain {
		cargoArgs, libtestArgs := splitExtra(c.Args[2:])
		bins, doc := r.binaries(rt, cargoArgs)
		if slices.Contains(cargoArgs, "--doc") || slices.ContainsFunc(bins, rt.unharnessed) || len(bins) == 0 {
			out = append(out, c)
			continue
		}
		prefix := filepath.Join(o.Dir, "c"+strconv.Itoa(i))
		script := coverScript(cargoArgs, libtestArgs, testExtra)
		if err := writeTools(prefix, o, profdata, cov); err != nil {
			return nil, err
		}
		args := append([]string{"sh", "-c", script, coverScriptName, prefix}, c.Args...)
		out = append(out, &lang.Command{Args: args, Dir: c.Dir, Env: env})
		if doc { // plain cargo test: its doc tests after the binaries
			out = append(out, &lang.Command{Args: withTestArgs(cargoBase([]string{"--doc"}, cargoExtra), testExtra), Dir: c.Dir})
		}
	}
	return out, nil
}

// coverTargetDir is testdex's target folder for instrumented builds:
// testdex-coverage inside the user's CARGO_TARGET_DIR, or inside the
// workspace's target folder (the crate's, without a workspace).
// .cargo/config.toml's build.target-dir is not read.
func (r Runner) coverTargetDir(o lang.RunOptions) string {
	if t := o.Getenv("CARGO_TARGET_DIR"); t != "" {
		return filepath.Join(t, "testdex-coverage")
	}
	root := r.Crate.Dir
	if r.Crate.DocPrefix != "" {
		for range strings.Split(r.Crate.DocPrefix, "/") {
			root = filepath.Dir(root)
		}
	}
	return filepath.Join(root, "target", "testdex-coverage")
}

// coverScript is the sh script of one cargo test command: $1 is the
// prefix of its files. It exits 101, as cargo test does, when a test
// failed, and with cargo's status when the build failed.
func coverScript(cargoArgs, libtestArgs, testExtra []string) string {
	build := append([]string{"cargo", "test", "--no-run"}, slices.DeleteFunc(slices.Clone(cargoArgs), func(a string) bool { return a == "--no-fail-fast" })...)
	var b strings.Builder
	w := func(s ...string) { b.WriteString(strings.Join(s, "") + "\n") }
	w(`p=$1; rc=0`)
	w(quoteAll(build), ` 2>"$p.build"; st=$?; cat "$p.build" >&2; [ $st = 0 ] || exit $st`)
	w(`sed -n 's/^ *Executable .*(\(.*\))$/\1/p' "$p.build" >"$p.bins"`)
	w(`export CARGO_MANIFEST_DIR="$PWD"`)
	w(`b=0`)
	w(`while IFS= read -r bin <&3; do`)
	w(`  LLVM_PROFILE_FILE="$p.$b.list.profraw" "$bin" --list --format terse `, quoteAll(libtestArgs), ` </dev/null | sed -n 's/: test$//p; s/: bench$//p' >"$p.$b.names"`)
	w(`  echo "testdex-cover: binary $(wc -l <"$p.$b.names")"`)
	w(`  j=0`)
	w(`  while IFS= read -r t <&4; do`)
	w(`    f="$p.$b.$j"`)
	w(`    LLVM_PROFILE_FILE="$f.profraw" "$bin" --exact "$t" `, quoteAll(testExtra), ` </dev/null || rc=101`)
	w(`    j=$((j+1))`)
	w(`  done 4<"$p.$b.names"`)
	w(`  b=$((b+1))`)
	w(`done 3<"$p.bins"`)
	w(`exit $rc`)
	return b.String()
}

func quoteAll(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

var _ lang.Coverer = Runner{}

// lookupEnv looks a variable up in env, the last setting winning; ok
// tells a variable set empty from one not set.
func lookupEnv(env []string, key string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}
