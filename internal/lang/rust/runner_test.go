package rust

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// testdata/run-lib.txt and run-it.txt were recorded with (cargo 1.95,
// RUST_BACKTRACE=1 in the environment):
//
//	cd testdata/run/cargo
//	cargo test --color never --no-fail-fast --lib > ../../../internal/lang/rust/testdata/run-lib.txt
//	cargo test --color never --no-fail-fast --test it > ../../../internal/lang/rust/testdata/run-it.txt

var runCrate = &Crate{Name: "runfixture", Targets: []Target{
	{Kind: "lib", Name: "runfixture", Root: "src/lib.rs", Tested: true, Doctest: true},
	{Kind: "test", Name: "it", Root: "tests/it.rs", Tested: true},
}}

// parseRecorded feeds a recording to the parser of cmd in every chunk
// size, expects the same events each time, and returns them.
func parseRecorded(t *testing.T, file string, cmd *lang.Command) []lang.RunEvent {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	parse := func(chunk int) []lang.RunEvent {
		var evs []lang.RunEvent
		ps := Runner{Crate: runCrate}.NewParser(&lang.Project{}, cmd, func(e lang.RunEvent) { evs = append(evs, e) })
		for i := 0; i < len(data); i += chunk {
			ps.Write(data[i:min(i+chunk, len(data))])
		}
		ps.Close(101)
		return evs
	}
	want := parse(len(data))
	for _, chunk := range []int{1, 2, 3, 7, 64, 100, 4096} {
		if got := parse(chunk); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s, chunk size %d: events differ", file, chunk)
		}
	}
	return want
}

func TestParserChunks(t *testing.T) {
	lib := parseRecorded(t, "testdata/run-lib.txt", &lang.Command{Args: []string{"cargo", "test", "--lib"}})
	finals := map[string]lang.RunEvent{}
	for _, e := range lib {
		if e.Action == testdex.ActionPass || e.Action == testdex.ActionFail || e.Action == testdex.ActionSkip {
			if e.Scope != "src/lib.rs" {
				t.Errorf("%s: scope %q, want src/lib.rs", e.Name, e.Scope)
			}
			finals[e.Name] = e
		}
	}
	for name, a := range map[string]testdex.Action{"tests::pass": "pass", "tests::fail": "fail", "tests::ignored": "skip",
		"tests::hang": "pass", "tests::leak": "pass", "tests::loud": "pass"} {
		if finals[name].Action != a {
			t.Errorf("%s: %q, want %q", name, finals[name].Action, a)
		}
	}
	if len(finals) != 6 {
		t.Errorf("%d results, want 6: %v", len(finals), finals)
	}
	f := finals["tests::fail"]
	if !strings.HasPrefix(f.Message, "assertion `left == right` failed: got 1, want 2\n  left: 1") || f.File != "src/lib.rs" || f.Line != 26 {
		t.Errorf("tests::fail failure = %q at %s:%d", f.Message, f.File, f.Line)
	}
	if m := finals["tests::ignored"].Message; m != "not today" {
		t.Errorf("ignored reason %q", m)
	}

	it := parseRecorded(t, "testdata/run-it.txt", &lang.Command{Args: []string{"cargo", "test", "--test", "it", "--", "--exact", "panics"}})
	var got []string
	for _, e := range it {
		if e.Action == testdex.ActionPass {
			got = append(got, e.Scope+" "+e.Name)
		}
	}
	if w := []string{"tests/it.rs integration", "tests/it.rs panics"}; !reflect.DeepEqual(got, w) {
		t.Errorf("integration results %q, want %q", got, w)
	}
}

// TestParserSuite checks that a module selected as a whole gets the
// result of the tests under it.
func TestParserSuite(t *testing.T) {
	var evs []string
	ps := Runner{Crate: runCrate}.NewParser(&lang.Project{}, &lang.Command{Args: []string{"cargo", "test", "--lib", "--", "ext::sums::"}},
		func(e lang.RunEvent) {
			if e.Action != testdex.ActionOutput {
				evs = append(evs, string(e.Action)+" "+e.Name)
			}
		})
	ps.Write([]byte("running 2 tests\ntest ext::sums::a ... ok\ntest ext::sums::b ... FAILED\n\nfailures:\n\n---- ext::sums::b stdout ----\nthread 'ext::sums::b' panicked at src/ext.rs:3:5:\nno\n"))
	ps.Close(101)
	want := []string{"pass ext::sums::a", "fail ext::sums::b", "fail ext::sums"}
	if !reflect.DeepEqual(evs, want) {
		t.Errorf("events %q, want %q", evs, want)
	}
}

func TestRunCommands(t *testing.T) {
	p := &lang.Project{Dir: "/c", Name: "runfixture"}
	tests := []*testdex.Test{
		{Scope: "src/lib.rs", Name: "src/lib.rs - add (line 7)", Run: "src/lib.rs - add (line 7)", Kind: testdex.KindDoctest},
		{Scope: "tests/it.rs", Name: "integration", Run: "integration", Kind: testdex.KindTest},
		{Scope: "src/lib.rs", Name: "tests::pass", Run: "tests::pass", Kind: testdex.KindTest},
		{Scope: "src/lib.rs", Name: "ext::sums", Kind: testdex.KindSuite},
		{Scope: "src/lib.rs", Name: "m::{closure_test!}", Kind: testdex.KindTest, Dynamic: true},
	}
	r := Runner{Crate: runCrate, Getenv: func(string) string { return "" }, CacheDir: func() (string, error) { return "/cache", nil }}
	cmds, err := r.RunCommands(p, &lang.Selection{Tests: tests}, lang.RunOptions{Extra: []string{"--release", "--", "--nocapture"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cmds {
		got = append(got, strings.Join(c.Args, " "))
	}
	base := "cargo test --color never --no-fail-fast "
	want := []string{
		base + "--lib --release -- --exact --nocapture tests::pass",
		base + "--lib --release -- --nocapture ext::sums:: m::",
		base + "--test it --release -- --exact --nocapture integration",
		base + "--doc --release -- --nocapture src/lib.rs - add (line 7)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("commands:\n got %q\nwant %q", got, want)
	}
	if env := cmds[0].Env; len(env) != 1 || !strings.HasPrefix(env[0], "CARGO_TARGET_DIR=/cache/testdex/cargo-target/runfixture-") {
		t.Errorf("env %q", env)
	}
	r.Getenv = func(k string) string { return map[string]string{"CARGO_TARGET_DIR": "/mine"}[k] }
	if cmds, _ := r.RunCommands(p, &lang.Selection{Tests: tests[:1]}, lang.RunOptions{}); cmds[0].Env != nil {
		t.Errorf("the user's CARGO_TARGET_DIR is overridden: %q", cmds[0].Env)
	}
	if _, err := r.RunCommands(p, &lang.Selection{Tests: []*testdex.Test{{Scope: "src/gone.rs", Name: "x", Run: "x"}}}, lang.RunOptions{}); err == nil {
		t.Error("a record of an unknown target gave no error")
	}
}
