package java

import (
	"testing"

	"github.com/testdex/testdex/internal/langtest"
)

const spannerSrc = `package p;

class Outer {
    Outer() { this(1); }
    Outer(int x) {}

    @Override
    public String toString() {
        Runnable r = () -> { go(); };
        return new Object() {
            int size() { return 2; }
        }.toString();
    }

    void go(String... rest) {}

    static class Inner {
        <T> java.util.List<T> m(java.util.Map<String, T> m, int[] xs) { return null; }
    }

    record R(int a) {
        R {
            if (a < 0) throw new IllegalArgumentException();
        }
    }
}
`

// TestSpans: every method and constructor, named with their enclosing
// types and parameter types, spanning their annotations.
func TestSpans(t *testing.T) {
	langtest.Spans(t, Spanner, "/p/Outer.java", spannerSrc,
		"Outer.Outer() 4-4", "Outer.Outer(int) 5-5", "Outer.toString() 7-13",
		"Outer.<anonymous>.size() 11-11", "Outer.go(String...) 15-15",
		"Outer.Inner.m(java.util.Map<String,T>,int[]) 18-18", "Outer.R.R() 22-24")
}

// TestCanonicalHash: comments and spacing keep the hash; any token,
// number or literal changes it.
func TestCanonicalHash(t *testing.T) {
	base := canonicalHash([]byte("int a(int x) { return x + 1; }"))
	for _, same := range []string{
		"int a(int x) {\n    // one more\n    return x+1; /* done */\n}",
		"int  a( int x ){return x + 1;}",
	} {
		if canonicalHash([]byte(same)) != base {
			t.Errorf("%q hashes differently", same)
		}
	}
	for _, diff := range []string{
		"int a(int x) { return x + 2; }", "int a(int x) { return x - 1; }", "int a(int y) { return y + 1; }",
		`int a(int x) { return x + "1"; }`, "int a(int x) { return x + '1'; }", "int a(int x) { return x + 1L; }",
	} {
		if canonicalHash([]byte(diff)) == base {
			t.Errorf("%q hashes the same", diff)
		}
	}
}
