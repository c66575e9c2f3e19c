// Package languages is the registry: the one list of the languages
// testdex knows, each a plain value declared in its own package
// (internal/lang/<lang>). Detection, the Namer, the CLI's framework list
// and the selection's per-framework facts read it; adding a language
// means adding its value here.
package languages

import (
	"path"
	"slices"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/golang"
	"github.com/testdex/testdex/internal/lang/java"
	"github.com/testdex/testdex/internal/lang/js"
	"github.com/testdex/testdex/internal/lang/markdown"
	"github.com/testdex/testdex/internal/lang/python"
	"github.com/testdex/testdex/internal/lang/rust"
	"github.com/testdex/testdex/internal/lang/skilltest"
)

// All are the languages, in the order a file is offered to their
// Detectors.
var All = []*lang.Language{
	golang.Language,
	python.Language,
	js.Language,
	rust.Language,
	java.Language,
	markdown.Language,
	skilltest.Language,
}

var byName = func() map[testdex.Framework]*lang.Framework {
	m := map[testdex.Framework]*lang.Framework{}
	for _, f := range Frameworks() {
		m[f.Name] = f
	}
	return m
}()

// Detectors returns the languages' Detectors, in the order of All.
func Detectors() []lang.Detector {
	out := make([]lang.Detector, 0, len(All))
	for _, l := range All {
		out = append(out, l.Detector)
	}
	return out
}

// Frameworks returns every framework, language by language in the order
// of All.
func Frameworks() []*lang.Framework {
	var out []*lang.Framework
	for _, l := range All {
		out = append(out, l.Frameworks...)
	}
	return out
}

// Names returns the frameworks' names, in the order of Frameworks.
func Names() []testdex.Framework {
	var out []testdex.Framework
	for _, f := range Frameworks() {
		out = append(out, f.Name)
	}
	return out
}

// Framework returns the framework of that name, or, for a name no
// language registers, a framework of that name with the generic facts
// (every field but Name zero).
func Framework(name testdex.Framework) *lang.Framework {
	if f := byName[name]; f != nil {
		return f
	}
	return &lang.Framework{Name: name}
}

// Bodies returns the rule for where the functions' bodies lie in a file
// (root-relative or absolute), of the language that sets one for the
// file's extension; nil when none does.
func Bodies(file string) *lang.Bodies {
	ext := path.Ext(file)
	for _, l := range All {
		if l.Bodies != nil && slices.Contains(l.Bodies.Extensions, ext) {
			return l.Bodies
		}
	}
	return nil
}

// Known reports whether a language registers a framework of that name.
func Known(name testdex.Framework) bool { return byName[name] != nil }
