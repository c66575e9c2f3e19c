// Package langtest holds what the language packages' own tests share
// (Extract, Names, CodecFields, Spans). It imports nothing of the engine but
// package lang, so that a language's internal tests can import it; only
// tests import it.
package langtest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

// Extract runs ex over src as the file rel (root-relative), with no
// framework or settings.
func Extract(ex lang.Extractor, rel, src string) lang.Result {
	return ex.Extract(&lang.File{Rel: rel, Data: []byte(src)})
}

// Names lists the records' names, or their keys when key is set, in
// order.
func Names(r lang.Result, key bool) []string {
	var out []string
	for _, t := range r.Tests {
		if key {
			out = append(out, t.Key())
		} else {
			out = append(out, t.Name)
		}
	}
	return out
}

// Fields is a type the impact cache's codec encodes field by field (a
// value of it) and how many fields the codec knows.
type Fields struct {
	Value any
	N     int
}

// CodecFields fails t for each type that has gained or lost a field since
// its codec (the language's impact_cache.go) was written: the codec must
// encode it, and its kind's version change.
func CodecFields(t testing.TB, want ...Fields) {
	t.Helper()
	for _, w := range want {
		if n := reflect.TypeOf(w.Value).NumField(); n != w.N {
			t.Errorf("%T has %d fields, the codec knows %d: update impact_cache.go and its kind's version", w.Value, n, w.N)
		}
	}
}

// Spans cuts src, as the file named file, with sp and fails t unless it
// finds the functions want lists, in order, each as "Name Start-End",
// every one with a hash; it returns the spans for further checks.
func Spans(t testing.TB, sp lang.Spanner, file, src string, want ...string) []lang.FuncSpan {
	t.Helper()
	spans, err := sp.Spans(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range spans {
		got = append(got, fmt.Sprintf("%s %d-%d", s.Name, s.Start, s.End))
		if s.Hash == 0 {
			t.Errorf("span %s has no hash", s.Name)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("spans:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	return spans
}
