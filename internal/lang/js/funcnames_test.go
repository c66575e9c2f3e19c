package js

import (
	"strings"
	"testing"

	"github.com/testdex/testdex"
)

// TestFunctionNames checks the names loupe prints of functions in Vitest
// rows (the fixture testdata/shapes/node/vitest/src/fnnames.test.ts holds
// the cases Vitest's own listing confirms), that a global function's name
// is not taken where the file binds or assigns it, and that a name
// crosses a local module's wire.
func TestFunctionNames(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"test.each([{ f: encodeURI }])('t $f', () => {})", "t [Function encodeURI]"},
		{"const encodeURI = (s) => s;\ntest.each([{ f: encodeURI }])('t $f', () => {})", "dynamic t $f"},
		{"function h(parseInt) { return parseInt }\ntest.each([{ f: parseInt }])('t $f', () => {})", "dynamic t $f"},
		{"encodeURI = null;\ntest.each([{ f: encodeURI }])('t $f', () => {})", "dynamic t $f"},
		{"test.each([{ o: { k: function* () {} } }])('t $o', () => {})", "dynamic t $o"},
		{"test.each([{ o: { 'a-b': () => 1 } }])('t $o', () => {})", "t { 'a-b': [Function a-b] }"},
		{"test.each([['x', { e: () => 1 }]])('t %s %o', () => {})", "dynamic t %s %o"},
	} {
		if got := strings.Join(names(extract(t, testdex.Vitest, "a.test.ts", c.src)), "|"); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
	v := fromWire(toWire(value{kind: kObject, keys: []string{"e"}, vals: []value{{str: "() => 1", fn: true, fname: "e"}}}, 0))
	if got := loupe(v, loupeInf); got != "{ e: [Function e] }" {
		t.Errorf("through the wire: %q", got)
	}
}
