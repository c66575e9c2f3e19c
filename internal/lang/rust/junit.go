package rust

import (
	"path"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// fromJUnit names a testcase of cargo-nextest's JUnit report: its
// classname is the test binary's ID ("crate" for the library's unit
// tests, "crate::it" for tests/it.rs, "crate::bin/tool" for a binary's),
// its name the test's path, as libtest names it. The binary is matched to
// a listed record's target root by Cargo's default layout; a target at
// another path (a [[test]] path = ...) matches nothing and is reported.
func fromJUnit(c lang.JUnitCase, listed []testdex.Test) []lang.Reported {
	_, target, _ := strings.Cut(c.Class, "::")
	var out []lang.Reported
	for _, t := range listed {
		b := binaryOf(t.Scope)
		if t.Name == c.Name && (b == target || b == "bin/" && strings.HasPrefix(target, "bin/")) {
			out = append(out, lang.Reported{Scope: t.Scope, Name: t.Name})
		}
	}
	return out
}

// binaryOf is the target part of nextest's binary ID for the target whose
// root file is root, by Cargo's default layout: "" for the library (and
// any root it does not place), "it" for tests/it.rs or tests/it/main.rs,
// "bin/NAME", "example/NAME", "bench/NAME" for the others. src/main.rs
// is the package's binary, named after the package, which the root does
// not say: "bin/", any binary's ID matching it.
func binaryOf(root string) string {
	if root == "src/main.rs" {
		return "bin/"
	}
	dir, file := path.Split(root)
	name := strings.TrimSuffix(file, ".rs")
	if name == "main" && dir != "src/" && dir != "" {
		dir, name = path.Dir(strings.TrimSuffix(dir, "/"))+"/", path.Base(strings.TrimSuffix(dir, "/"))
	}
	switch dir {
	case "tests/":
		return name
	case "src/bin/":
		return "bin/" + name
	case "examples/":
		return "example/" + name
	case "benches/":
		return "bench/" + name
	}
	return ""
}
