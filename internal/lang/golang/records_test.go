package golang

import (
	"slices"
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

// TestRecordsNeverRepeat checks the records addNamed appends without
// looking them up: a constant name that a Dynamic record already has,
// and a name the namer gives again after an exclusive path's rollback,
// are still one record each.
func TestRecordsNeverRepeat(t *testing.T) {
	src := `package p

import "testing"

func TestDyn(t *testing.T) {
	for _, name := range names {
		t.Run(name, func(t *testing.T) {})
	}
	t.Run("{name}", func(t *testing.T) {})
	t.Run("{name}", func(t *testing.T) {})
}

func TestPaths(t *testing.T) {
	if cond() {
		t.Run("x", func(t *testing.T) {})
		return
	}
	for i := 0; i < 2; i++ {
		t.Run("x", func(t *testing.T) {})
	}
}
`
	res := Default.Extract(&lang.File{Rel: "p_test.go", Data: []byte(src)})
	var got []string
	for _, r := range res.Tests {
		got = append(got, r.Name)
	}
	want := []string{"TestDyn", "TestDyn/{name}", "TestDyn/{name}#01", "TestPaths", "TestPaths/x", "TestPaths/x#01"}
	if !slices.Equal(got, want) {
		t.Errorf("records %q, want %q", got, want)
	}
}
