package golang

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

func TestFactsRoundTrip(t *testing.T) {
	f := facts{Calls: []string{"farHelper", "run"}, Runners: []string{"check"},
		Relays: []relay{{Name: "relay", Via: []string{"farHelper2"}}, {Name: "r2", Via: []string{"a", "b"}}},
		Hash:   0xfeedface, Decls: []string{"deepName", "mode"}}
	if got := decodeFacts(encodeFacts(f)); !reflect.DeepEqual(got, f) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, f)
	}
	b := encodeFacts(f)
	for n := range b {
		got := decodeFacts(b[:n]) // truncated data: no facts or a prefix, never a panic
		if len(got.Runners) > 1 || len(got.Relays) > 2 {
			t.Errorf("decoding %d of %d bytes gave %+v", n, len(b), got)
		}
	}
}

func TestTCallees(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{`check(t, "a")`, []string{"check"}},
		{`check(t)`, []string{"check"}},
		{`run(ctx, t, x)`, []string{"run"}},
		{`run(ctx, f(a, b), t)`, []string{"run"}},
		{`s.check(t)`, []string{"s.check"}},     // a method, or
		{`pkg.Check(t)`, []string{"pkg.Check"}}, // another package's: the caller tells
		{`check(tt)`, nil},                      // another name
		{`[]any{t, 1}`, nil},                    // a literal, not a call
		{`m[k](t)`, nil},                        // no name before the parenthesis
		{`outer(inner(t), 1)`, []string{"inner"}},
		{`a(t); b(1, t)`, []string{"a", "b"}},
	} {
		if got := tCallees([]byte(c.text), "t"); !slices.Equal(got, c.want) {
			t.Errorf("tCallees(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestTextRuns(t *testing.T) {
	for text, want := range map[string]bool{
		`t.Run("x", f)`:    true,
		`t.Run(name, func`: true,
		`cmd.Run()`:        false,
		`cmd.Run( )`:       false,
		`x.Run(ctx)`:       true, // a candidate: the walk decides
		`Run("x")`:         false,
		`t.Runner("x", f)`: false,
		"t.Run(\n\t\"x\",": true,
	} {
		if got := textRuns([]byte(text)); got != want {
			t.Errorf("textRuns(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestCalledNames(t *testing.T) {
	got := calledNames([]byte(`check(t, fmt.Sprint(x)); if run(t) { s.m(t) }; (f)(t); g (t)`))
	if want := []string{"check", ".Sprint", "run", ".m"}; !slices.Equal(got, want) {
		t.Errorf("calledNames = %q, want %q", got, want)
	}
}

func TestFuncValueNames(t *testing.T) {
	src := []byte(`package p
func helper(t *testing.T, fn func(t *testing.T), opts ...func()) {
	check := func(name string) {}
	var later func(int)
	later = func(int) {}
	go func() {}()
	defer func() {}()
	return func() {}
}`)
	file, err := parser.ParseFile(token.NewFileSet(), "x_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	x := newFileCtx(token.NewFileSet(), file, src)
	var got []string
	for n := range x.funcValueNames(x.main) {
		got = append(got, n)
	}
	slices.Sort(got)
	if want := []string{"check", "fn", "later"}; !slices.Equal(got, want) {
		t.Errorf("funcValueNames = %q, want %q", got, want)
	}
}

// TestLinkAlone lists one fixture file alone, as `testdex list FILE` does:
// the Linker reads the folder's other test files to follow their helpers.
func TestLinkAlone(t *testing.T) {
	dir, err := filepath.Abs(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, alone := range []bool{true, false} {
		_, res := extractFixture(t, Default, "helpers_test.go")
		f := &lang.Linked{Rel: "helpers_test.go", RootRel: "helpers_test.go", Result: &res, Alone: alone}
		p := &lang.Project{Dir: dir, Name: "example.com/fixture", Manifest: "go.mod"}
		if probs := (linker{}).Link(p, []*lang.Linked{f}); len(probs) > 0 {
			t.Fatal(probs)
		}
		var far []string
		for _, r := range res.Tests {
			if strings.HasPrefix(r.Name, "TestOtherFileHelper/") {
				far = append(far, r.Name)
			}
		}
		want := []string{"TestOtherFileHelper/far", "TestOtherFileHelper/far/deep", "TestOtherFileHelper/relay-far"}
		if !alone {
			want = nil // the Linker is told it has the folder: it does not read it
		}
		if !slices.Equal(far, want) {
			t.Errorf("alone=%v: %q, want %q", alone, far, want)
		}
	}
}

// TestPkgExtractorKey checks that a cached result that followed helpers
// of other files is used only while none of them changed.
func TestPkgExtractorKey(t *testing.T) {
	sib := []sibling{{Rel: "a_test.go", Abs: "/x/a_test.go", Hash: 1, Names: []string{"h"}}}
	k1 := newPkgExtractor(Default, sib, nil).CacheKey()
	sib[0].Hash = 2
	k2 := newPkgExtractor(Default, sib, nil).CacheKey()
	if k1 == k2 || !strings.HasPrefix(k1, Default.CacheKey()) {
		t.Errorf("keys %q and %q", k1, k2)
	}
}
