package rust

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Lister is the runtime method for cargo: `cargo test -- --list` builds
// every target `cargo test` runs (unit tests of the lib and bins,
// integration tests, doc tests) and prints each binary's tests, one
// "NAME: test" line each, closed by an "N tests, M benchmarks" line. cargo
// names the binary on stderr ("Running unittests src/lib.rs (...)",
// "Running tests/it.rs (...)", "Doc-tests NAME"), in the same order, which
// is how ParseList gives each test its Scope: the target's root file.
type Lister struct{ Crate *Crate }

// ListCommand returns `cargo test --color never -- --list`, with the
// feature flags of the configuration, run in the crate's folder; files
// are ignored (cargo lists whole targets).
func (l Lister) ListCommand(p *lang.Project, _ []string) (*lang.Command, error) {
	args := []string{"cargo", "test", "--color", "never"}
	if l.Crate != nil {
		args = append(args, l.Crate.FeatureFlags...)
	}
	return &lang.Command{Args: append(args, "--", "--list"), Dir: p.Dir}, nil
}

var (
	runningRE = regexp.MustCompile(`^\s*Running (?:unittests )?(.+?) \(`)
	docRE     = regexp.MustCompile(`^\s*Doc-tests (\S+)`)
	summaryRE = regexp.MustCompile(`^\d+ tests?, \d+ benchmarks?$`)
	entryRE   = regexp.MustCompile(`^(.*): (test|bench)$`)
)

// ParseList pairs stdout's per-binary sections with stderr's headers. A
// build failure (no sections, non-zero exit) is an error quoting cargo's
// last lines; a section count that differs from the header count is an
// error returned with the tests that could be placed.
func (l Lister) ParseList(p *lang.Project, stdout, stderr []byte, exitCode int) ([]lang.Listed, error) {
	scopes := l.headers(stderr)
	var out []lang.Listed
	section := 0
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if summaryRE.MatchString(line) {
			section++
			continue
		}
		m := entryRE.FindStringSubmatch(line)
		if m == nil || section >= len(scopes) {
			continue
		}
		kind := testdex.KindTest
		switch {
		case scopes[section].doc:
			kind = testdex.KindDoctest
		case m[2] == "bench":
			kind = testdex.KindBenchmark
		}
		out = append(out, lang.Listed{Scope: scopes[section].root, Name: m[1], Kind: kind})
	}
	if exitCode != 0 && section == 0 {
		return nil, fmt.Errorf("cargo test -- --list failed (exit %d); run it in %s to see why:\n%s", exitCode, p.Dir, tail(stderr, 10))
	}
	if section != len(scopes) {
		return out, fmt.Errorf("cargo printed %d test lists for %d targets; rerun `cargo test -- --list` in %s to check", section, len(scopes), p.Dir)
	}
	return out, nil
}

// header is one binary cargo ran: its target root, and whether it is the
// doc tests.
type header struct {
	root string
	doc  bool
}

// headers reads stderr's "Running" and "Doc-tests" lines and maps each to
// the crate-relative root file of its target.
func (l Lister) headers(stderr []byte) []header {
	var hs []header
	for _, line := range strings.Split(string(stderr), "\n") {
		if m := runningRE.FindStringSubmatch(line); m != nil {
			hs = append(hs, header{root: l.rootOf(m[1])})
		} else if docRE.MatchString(line) {
			hs = append(hs, header{root: l.libRoot(), doc: true})
		}
	}
	return hs
}

// rootOf maps a path cargo printed to a target root: the target whose
// root it is or ends with; the path itself when none matches.
func (l Lister) rootOf(printed string) string {
	if l.Crate != nil {
		for _, t := range l.Crate.Targets {
			if printed == t.Root || strings.HasSuffix(printed, "/"+t.Root) {
				return t.Root
			}
		}
	}
	return printed
}

func (l Lister) libRoot() string {
	if l.Crate != nil {
		for _, t := range l.Crate.Targets {
			if t.Kind == "lib" {
				return t.Root
			}
		}
	}
	return "src/lib.rs"
}

// tail returns the last n lines of b.
func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Reports says which records cargo test -- --list can confirm: not those
// behind a cfg(...) gate testdex cannot decide (an unknown cfg, another
// platform under all_platforms). Gates known to be true are confirmable;
// those known to be false were never listed.
func (l Lister) Reports(t *testdex.Test) bool {
	var e *CfgEnv
	if l.Crate != nil {
		e = l.Crate.Cfg
	}
	return e.Eval(t.Tags, t.Kind == testdex.KindDoctest) == cfgTrue
}
