package rust

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/parsertest"
)

// The recordings in testdata were made on testdata/run/cargo (cargo 1.95,
// edition 2024, RUST_BACKTRACE=1 in the environment) with:
//
//	cp -r testdata/run/cargo /tmp/rf && cd /tmp/rf
//	cargo test --color never --no-fail-fast > run-all.txt
//	cargo test --color never --no-fail-fast --lib > run-lib.txt
//	cargo test --color never --no-fail-fast --test it > run-it.txt
//	cargo test --color never --no-fail-fast --doc -- --color always > run-doc-colour.txt

var runCrate = &Crate{Name: "runfixture", Targets: []Target{
	{Kind: "lib", Name: "runfixture", Root: "src/lib.rs", Tested: true, Doctest: true},
	{Kind: "test", Name: "more", Root: "tests/more.rs", Tested: true},
	{Kind: "test", Name: "it", Root: "tests/it.rs", Tested: true},
}}

// parseRecorded feeds a recording to the parser of cmd in every chunk
// size, expects the same events each time, those of its golden file in
// testdata/events, and returns them. After a deliberate change of the
// parser, regenerate the golden files (and check the difference by hand)
// with
//
//	go test ./internal/lang/rust -run 'TestParser(WholeCrate|Targets)$' -update
func parseRecorded(t *testing.T, file string, cmd *lang.Command) []lang.RunEvent {
	t.Helper()
	golden := filepath.Join("testdata", "events", strings.TrimSuffix(filepath.Base(file), ".txt")+".jsonl")
	return parsertest.Run(t, parsertest.Case{Stream: file, Exit: 101, Golden: golden,
		New: func(emit func(lang.RunEvent)) lang.Parser {
			return Runner{Crate: runCrate}.NewParser(&lang.Project{}, cmd, emit)
		}})
}

// results returns "ACTION SCOPE NAME" for each result event, in order.
func results(evs []lang.RunEvent) []string {
	var out []string
	for _, e := range evs {
		switch e.Action {
		case testdex.ActionPass, testdex.ActionFail, testdex.ActionSkip:
			s := string(e.Action) + " " + e.Scope + " " + e.Name
			if e.Kind != "" {
				s += " (" + string(e.Kind) + ")"
			}
			out = append(out, s)
		}
	}
	return out
}

// TestParserWholeCrate reads plain `cargo test`: one result per libtest
// line (13, as cargo's own summaries count), each in the target cargo ran
// it in, the doc tests' two parts (merged, then compile_fail) included.
func TestParserWholeCrate(t *testing.T) {
	evs := parseRecorded(t, "testdata/run-all.txt", &lang.Command{Args: []string{"cargo", "test", "--color", "never", "--no-fail-fast"}})
	want := []string{
		"pass src/lib.rs ext::tests::doubles", "pass src/lib.rs tests::hang", "skip src/lib.rs tests::ignored",
		"pass src/lib.rs tests::leak", "pass src/lib.rs tests::loud", "pass src/lib.rs tests::pass", "fail src/lib.rs tests::fail",
		"pass tests/it.rs integration", "pass tests/it.rs panics",
		"pass tests/more.rs integration",
		"pass src/lib.rs src/lib.rs - add (line 7) (doctest)", "pass src/lib.rs src/ext.rs - ext::double (line 7) (doctest)",
		"pass src/lib.rs src/ext.rs - ext::double (line 11) (doctest)",
	}
	if got := results(evs); !reflect.DeepEqual(got, want) {
		t.Errorf("results:\n got %q\nwant %q", got, want)
	}
	for _, e := range evs {
		if e.Action != testdex.ActionFail {
			continue
		}
		if !strings.HasPrefix(e.Message, "assertion `left == right` failed: got 1, want 2\n  left: 1") || e.File != "src/lib.rs" || e.Line != 26 {
			t.Errorf("tests::fail failure = %q at %s:%d", e.Message, e.File, e.Line)
		}
	}
}

func TestParserTargets(t *testing.T) {
	lib := parseRecorded(t, "testdata/run-lib.txt", &lang.Command{Args: []string{"cargo", "test", "--color", "never", "--no-fail-fast", "--lib"}})
	if got := results(lib); len(got) != 7 || got[2] != "skip src/lib.rs tests::ignored" {
		t.Errorf("lib results %q", got)
	}
	for _, e := range lib {
		if e.Name == "tests::ignored" && e.Message != "not today" {
			t.Errorf("ignored reason %q", e.Message)
		}
	}
	it := parseRecorded(t, "testdata/run-it.txt", &lang.Command{Args: []string{"cargo", "test", "--test", "it", "--", "--exact", "panics"}})
	if got, w := results(it), []string{"pass tests/it.rs integration", "pass tests/it.rs panics"}; !reflect.DeepEqual(got, w) {
		t.Errorf("integration results %q, want %q", got, w)
	}
	doc := parseRecorded(t, "testdata/run-doc-colour.txt", &lang.Command{Args: []string{"cargo", "test", "--doc", "--", "--color", "always"}})
	want := []string{"pass src/lib.rs src/ext.rs - ext::double (line 7) (doctest)", "pass src/lib.rs src/lib.rs - add (line 7) (doctest)",
		"pass src/lib.rs src/ext.rs - ext::double (line 11) (doctest)"}
	if got := results(doc); !reflect.DeepEqual(got, want) {
		t.Errorf("doc results with colours:\n got %q\nwant %q", got, want)
	}
}

// TestParserReportsOnlyLibtestLines: a module run whole gets no result of
// its own, a test's mode and a benchmark's padding are not part of its
// name, and a doc test found where a target's tests were expected is a
// doc test.
func TestParserReportsOnlyLibtestLines(t *testing.T) {
	var evs []lang.RunEvent
	ps := Runner{Crate: runCrate}.NewParser(&lang.Project{}, &lang.Command{Args: []string{"cargo", "test", "--lib", "--", "ext::sums::"}},
		func(e lang.RunEvent) { evs = append(evs, e) })
	ps.Write([]byte("\nrunning 4 tests\ntest ext::sums::a ... ok\ntest ext::sums::b ... FAILED\ntest ext::p - should panic ... ok\n" +
		"test ext::bench_x     ... bench:         12 ns/iter (+/- 1)\n\nfailures:\n\n---- ext::sums::b stdout ----\n" +
		"thread 'ext::sums::b' panicked at src/ext.rs:3:5:\nno\n\nrunning 1 test\ntest src/lib.rs - f (line 3) - compile ... ok\n"))
	ps.Close(101)
	want := []string{"pass src/lib.rs ext::sums::a", "pass src/lib.rs ext::p", "pass src/lib.rs ext::bench_x", "fail src/lib.rs ext::sums::b",
		"pass src/lib.rs src/lib.rs - f (line 3) (doctest)"}
	if got := results(evs); !reflect.DeepEqual(got, want) {
		t.Errorf("results:\n got %q\nwant %q", got, want)
	}
}

// TestBinaries checks the order in which the parser expects cargo's test
// binaries: by kind, then name, leaving out targets whose required
// features are off; a target without harness runs.
func TestBinaries(t *testing.T) {
	dir := t.TempDir()
	manifest := `[package]
name = "o"
[features]
default = ["a"]
a = ["b"]
b = []
c = []
[[bin]]
name = "needs_b"
required-features = ["b"]
[[bin]]
name = "needs_c"
required-features = ["c"]
[[test]]
name = "custom"
harness = false
`
	if err := os.WriteFile(filepath.Join(dir, "Cargo.toml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	r := Runner{Crate: &Crate{Dir: dir, Name: "o", Targets: []Target{
		{Kind: "test", Name: "z", Root: "tests/z.rs", Tested: true},
		{Kind: "test", Name: "custom", Root: "tests/custom.rs"},
		{Kind: "bin", Name: "needs_c", Root: "src/bin/needs_c.rs", Tested: true},
		{Kind: "bin", Name: "needs_b", Root: "src/bin/needs_b.rs", Tested: true},
		{Kind: "example", Name: "e", Root: "examples/e.rs"},
		{Kind: "lib", Name: "o", Root: "src/lib.rs", Tested: true, Doctest: true},
	}}}
	rt := r.readRunTargets()
	roots := func(args ...string) []string {
		bins, doc := r.binaries(rt, args)
		var out []string
		for _, b := range bins {
			out = append(out, b.Root)
		}
		if doc {
			out = append(out, "doc")
		}
		return out
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"src/lib.rs", "src/bin/needs_b.rs", "tests/custom.rs", "tests/z.rs", "doc"}},
		{[]string{"--no-default-features"}, []string{"src/lib.rs", "tests/custom.rs", "tests/z.rs", "doc"}},
		{[]string{"--features", "c"}, []string{"src/lib.rs", "src/bin/needs_b.rs", "src/bin/needs_c.rs", "tests/custom.rs", "tests/z.rs", "doc"}},
		{[]string{"--test", "z", "--lib"}, []string{"src/lib.rs", "tests/z.rs"}},
		{[]string{"--example=e"}, []string{"examples/e.rs"}},
		{[]string{"--doc"}, []string{"doc"}},
	} {
		if got := roots(c.args...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("binaries(%q) = %q, want %q", c.args, got, c.want)
		}
	}
	// What a target without harness prints cannot be told from the next
	// target's: the whole crate then runs target by target.
	got := commandLines(t, r, &lang.Selection{Paths: []lang.PathSelection{{Path: ".", Dir: true}}})
	want := []string{base + " --lib --bin needs_b --test z", base + " --test custom", base + " --doc"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("whole crate with a target without harness:\n got %q\nwant %q", got, want)
	}
}

func commandLines(t *testing.T, r Runner, sel *lang.Selection, extra ...string) []string {
	t.Helper()
	cmds, err := r.RunCommands(&lang.Project{Dir: "/c", Name: "runfixture"}, sel, lang.RunOptions{Extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cmds {
		if c.Env != nil {
			t.Errorf("%q: environment %q added", c.Args, c.Env)
		}
		got = append(got, strings.Join(c.Args, " "))
	}
	return got
}

const base = "cargo test --color never --no-fail-fast"

func TestRunCommandsWhole(t *testing.T) {
	r := Runner{Crate: runCrate}
	got := commandLines(t, r, &lang.Selection{Paths: []lang.PathSelection{{Path: ".", Dir: true}}}, "--release", "--", "--nocapture")
	if w := []string{base + " --release -- --nocapture"}; !reflect.DeepEqual(got, w) {
		t.Errorf("whole crate:\n got %q\nwant %q", got, w)
	}
}

func TestRunCommandsPaths(t *testing.T) {
	r := Runner{Crate: runCrate}
	extTests := []*testdex.Test{{Scope: "src/lib.rs", Name: "ext::tests::doubles", Run: "ext::tests::doubles", File: "src/ext.rs"}}
	for _, c := range []struct {
		paths []lang.PathSelection
		want  []string
	}{
		{[]lang.PathSelection{{Path: "tests", Dir: true}}, []string{base + " --test it --test more"}},
		{[]lang.PathSelection{{Path: "tests/more.rs"}}, []string{base + " --test more"}},
		{[]lang.PathSelection{{Path: "src/lib.rs"}}, []string{base + " --lib", base + " --doc -- src/lib.rs"}},
		{[]lang.PathSelection{{Path: "src/ext.rs", Tests: extTests}}, []string{base + " --lib -- ext:: --skip ::ext::", base + " --doc -- src/ext.rs"}},
		{[]lang.PathSelection{{Path: "src/ext", Dir: true}}, []string{base + " --lib -- ext:: --skip ::ext::", base + " --doc -- src/ext/"}},
		{[]lang.PathSelection{{Path: "src", Dir: true}}, []string{base + " --lib", base + " --doc -- src/"}},
		{[]lang.PathSelection{{Path: ".", Dir: true}, {Path: "tests/it.rs"}}, []string{base + " --lib --test it --test more", base + " --doc"}},
	} {
		if got := commandLines(t, r, &lang.Selection{Paths: c.paths}); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.paths[0].Path, got, c.want)
		}
	}
}

func TestRunCommandsTests(t *testing.T) {
	tests := []*testdex.Test{
		{Scope: "src/lib.rs", Name: "src/lib.rs - add (line 7)", Run: "src/lib.rs - add (line 7)", Kind: testdex.KindDoctest},
		{Scope: "tests/it.rs", Name: "integration", Run: "integration", Kind: testdex.KindTest},
		{Scope: "src/lib.rs", Name: "tests::pass", Run: "tests::pass", Kind: testdex.KindTest},
		{Scope: "src/lib.rs", Name: "ext::sums", Kind: testdex.KindSuite},
		{Scope: "src/lib.rs", Name: "m::{closure_test!}", Kind: testdex.KindTest, Dynamic: true},
	}
	r := Runner{Crate: runCrate}
	got := commandLines(t, r, &lang.Selection{Tests: tests}, "--release", "--", "--nocapture")
	skips := ""
	for d := '0'; d <= '9'; d++ {
		skips += " --skip " + string(d) + "7)"
	}
	want := []string{
		base + " --lib --release -- --exact --nocapture tests::pass",
		base + " --lib --release -- --nocapture ext::sums:: m::",
		base + " --test it --release -- --exact --nocapture integration",
		base + " --doc --release -- --nocapture 7)" + skips,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("commands:\n got %q\nwant %q", got, want)
	}
	if _, err := r.RunCommands(&lang.Project{}, &lang.Selection{Tests: []*testdex.Test{{Scope: "src/gone.rs", Name: "x", Run: "x"}}}, lang.RunOptions{}); err == nil {
		t.Error("a record of an unknown target gave no error")
	}
}

// TestDocSelection: one doc test's filter and skips select it alone among
// doc tests on lines ending in the same digits and on the same line of
// another file, and a skip never drops another selected doc test.
func TestDocSelection(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"src/lib.rs":   strings.Repeat("\n", 6) + "/// ```\n",
		"src/ext.rs":   strings.Repeat("\n", 6) + "/// ```\n",
		"src/plain.rs": strings.Repeat("\n", 6) + "fn f() {}\n",
		"target/x.rs":  strings.Repeat("\n", 6) + "/// ```\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	r := Runner{Crate: &Crate{Dir: dir, DocPrefix: "crates/m"}}
	sels := r.docSelections([]string{"crates/m/src/lib.rs - add (line 7)"})
	if len(sels) != 1 {
		t.Fatalf("one doc test, %d commands", len(sels))
	}
	if args := sels[0]; args[0] != "7)" || !strings.Contains(strings.Join(args, " "), "--skip 17) --skip 27)") || args[len(args)-1] != "crates/m/src/ext.rs" {
		t.Errorf("one doc test: %q", args)
	}
	sels = r.docSelections([]string{"crates/m/src/lib.rs - add (line 7)", "crates/m/src/ext.rs - x (line 17)", "crates/m/src/lib.rs - (line 117)"})
	names := []string{
		"crates/m/src/lib.rs - add (line 7)", "crates/m/src/ext.rs - x (line 17)", "crates/m/src/lib.rs - (line 117)", // selected
		"crates/m/src/lib.rs - f (line 27)", "crates/m/src/ext.rs - (line 7)", "crates/m/src/lib.rs - g (line 1117)", // not
	}
	for i, n := range names {
		runs := 0
		for _, args := range sels {
			if libtestSelects(args, n) {
				runs++
			}
		}
		if want := map[bool]int{true: 1, false: 0}[i < 3]; runs != want {
			t.Errorf("%q run %d times by %q, want %d", n, runs, sels, want)
		}
	}
}

// libtestSelects applies libtest's filter rules (substrings, any filter,
// no skip) to one name.
func libtestSelects(args []string, name string) bool {
	var filters, skips []string
	for i := 0; i < len(args); i++ {
		if args[i] == "--skip" {
			i++
			skips = append(skips, args[i])
		} else {
			filters = append(filters, args[i])
		}
	}
	hit := len(filters) == 0
	for _, f := range filters {
		hit = hit || strings.Contains(name, f)
	}
	for _, s := range skips {
		hit = hit && !strings.Contains(name, s)
	}
	return hit
}

// TestRunCommandsRootFile: a target's root file runs its target without
// the module files beside it (which cargo test would run with it).
func TestRunCommandsRootFile(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"src/lib.rs", "src/main.rs", "src/ext.rs", "src/inner/mod.rs", "src/bin/x.rs", "src/notes.txt"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	r := Runner{Crate: &Crate{Dir: dir, Name: "c", Targets: []Target{
		{Kind: "lib", Name: "c", Root: "src/lib.rs", Tested: true, Doctest: true},
		{Kind: "bin", Name: "c", Root: "src/main.rs", Tested: true},
		{Kind: "bin", Name: "x", Root: "src/bin/x.rs", Tested: true},
	}}}
	got := commandLines(t, r, &lang.Selection{Paths: []lang.PathSelection{{Path: "src/lib.rs"}}})
	want := []string{base + " --lib -- --skip ext:: --skip inner::", base + " --doc -- src/lib.rs"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("commands:\n got %q\nwant %q", got, want)
	}
}
