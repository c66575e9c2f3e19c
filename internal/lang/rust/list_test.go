package rust

import (
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Recorded with cargo 1.95 in a workspace member
// (`cargo test -- --list`, stdout and stderr kept apart).
const recStdout = `tests::t: test

1 test, 0 benchmarks
it1: test
b: bench

2 tests, 1 benchmark
crates/m/src/lib.rs - f (line 1): test

1 test, 0 benchmarks
`

const recStderr = `   Compiling m v0.1.0 (/tmp/ws/crates/m)
    Finished ` + "`test`" + ` profile [unoptimized + debuginfo] target(s) in 0.67s
     Running unittests src/lib.rs (/tmp/target/debug/deps/m-de1d81aa57a4bc02)
     Running tests/it.rs (/tmp/target/debug/deps/it-9779c0e687c353cf)
   Doc-tests m
`

func TestParseList(t *testing.T) {
	l := Lister{Crate: &Crate{Targets: []Target{{Kind: "lib", Root: "src/lib.rs"}, {Kind: "test", Root: "tests/it.rs"}}}}
	got, err := l.ParseList(&lang.Project{Dir: "/tmp/ws/crates/m"}, []byte(recStdout), []byte(recStderr), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []lang.Listed{
		{Scope: "src/lib.rs", Name: "tests::t", Kind: testdex.KindTest},
		{Scope: "tests/it.rs", Name: "it1", Kind: testdex.KindTest},
		{Scope: "tests/it.rs", Name: "b", Kind: testdex.KindBenchmark},
		{Scope: "src/lib.rs", Name: "crates/m/src/lib.rs - f (line 1)", Kind: testdex.KindDoctest},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, err := l.ParseList(&lang.Project{Dir: "d"}, nil, []byte("error[E0425]: cannot find value"), 101); err == nil {
		t.Error("a failed build should be an error")
	}
}
