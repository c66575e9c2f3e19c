// Package stmtdifftest checks a language's lang.StatementDiffer on edits
// of one source: the shared table test of the js and python packages.
package stmtdifftest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

// An Edit replaces Old by New, once, in the source, and says what
// ChangedStatements must return for the source's first function: the old
// lines of the changed units, or nil where it must not narrow (the whole
// function counts as changed).
type Edit struct {
	Name     string
	Old, New string
	Want     []lang.Span
}

// Check runs each edit as a subtest: it edits src, spans both versions of
// file with sp, and compares what sp's ChangedStatements says of their
// first functions with the edit's Want. more, when set, is called with
// both versions for the language's own checks.
func Check(t *testing.T, sp lang.Spanner, file, src string, edits []Edit, more func(t *testing.T, cur string, old, now lang.FuncSpan)) {
	for _, e := range edits {
		t.Run(e.Name, func(t *testing.T) {
			if !strings.Contains(src, e.Old) {
				t.Fatalf("%q not in the source", e.Old)
			}
			cur := strings.Replace(src, e.Old, e.New, 1)
			olds, err := sp.Spans(file, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			curs, err := sp.Spans(file, []byte(cur))
			if err != nil {
				t.Fatal(err)
			}
			got, ok := sp.(lang.StatementDiffer).ChangedStatements(file, []byte(src), olds[0], []byte(cur), curs[0])
			switch {
			case e.Want == nil && ok:
				t.Errorf("narrowed to %v, want the whole function", got)
			case e.Want != nil && (!ok || !reflect.DeepEqual(got, e.Want)):
				t.Errorf("got %v (ok %v), want %v", got, ok, e.Want)
			}
			if more != nil && e.Want != nil {
				more(t, cur, olds[0], curs[0])
			}
		})
	}
}
