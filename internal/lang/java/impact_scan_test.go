package java

import (
	"reflect"
	"slices"
	"testing"
)

// TestScanJava: the lexical scan reads the header through annotations
// and comments, finds top-level types at depth 0 only, and never takes
// names from comments, character literals or text blocks.
func TestScanJava(t *testing.T) {
	src := `/* header */ @Generated("x") package com.x; // trailing
import static com.y.Util.helper;
import static com.y.Consts.*;
import com.z.*;
import com.z.Outer.Inner ;

/** Uses NotInDoc. */
public @interface Marker {}
final class Main extends Base implements com.w.Api {
    class Nested {}
    String s = "com.q.Loaded";
    String block = """
        Hidden "quoted" \""" still
        """;
    char c = '"';
    Object o = new com.w.Impl(); // NotInComment
}
record Pair(int a, int b) {}
`
	r := scanJava([]byte(src))
	if r.pkg != "com.x" {
		t.Errorf("pkg = %q", r.pkg)
	}
	wantImports := []javaImport{{"com.y.Util.helper", true, false}, {"com.y.Consts", true, true}, {"com.z", false, true}, {"com.z.Outer.Inner", false, false}}
	if !reflect.DeepEqual(r.imports, wantImports) {
		t.Errorf("imports = %+v", r.imports)
	}
	if want := []string{"Marker", "Main", "Pair"}; !reflect.DeepEqual(r.types, want) {
		t.Errorf("types = %q, want %q", r.types, want)
	}
	for _, name := range []string{"Base", "Nested", "Object"} {
		if !r.idents[name] {
			t.Errorf("ident %s missing", name)
		}
	}
	for _, name := range []string{"NotInDoc", "NotInComment", "Hidden"} {
		if r.idents[name] {
			t.Errorf("ident %s read from a comment or a string", name)
		}
	}
	if !slices.Contains(r.chains, "com.w.Api") || !slices.Contains(r.chains, "com.w.Impl") {
		t.Errorf("chains = %q", r.chains)
	}
	if !reflect.DeepEqual(r.strs, []string{"com.q.Loaded"}) {
		t.Errorf("strs = %q", r.strs)
	}
}

// TestAccessor: Gradle's type-safe project accessors.
func TestAccessor(t *testing.T) {
	for in, want := range map[string]string{"core-api": "coreApi", "a:json_util": "a.jsonUtil", "lib": "lib"} {
		if got := accessor(in); got != want {
			t.Errorf("accessor(%q) = %q, want %q", in, got, want)
		}
	}
}
