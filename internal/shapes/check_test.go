package shapes_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/shapes"
)

// recorder is a testing.TB that keeps what Check reports instead of
// failing the test; Fatalf does not stop Check, so only the first message
// counts.
type recorder struct {
	testing.TB
	msgs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Name() string { return "TestShapes/sub" }

func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

// TestCheck covers the three outcomes of Check: equal, different (the
// message holds the diff and the regenerate command) and -update, which
// writes the file so that the next run passes.
func TestCheck(t *testing.T) {
	file := filepath.Join(t.TempDir(), "eco.expected.txt")
	if err := os.WriteFile(file, []byte("a\tfunction\ta\t-\t-\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := "b\tfunction\tb\t-\tskip\n"

	r := &recorder{TB: t}
	shapes.Check(r, "a\tfunction\ta\t-\t-\n", file, false)
	if len(r.msgs) != 0 {
		t.Errorf("same listing: Check reported %q", r.msgs)
	}

	r = &recorder{TB: t}
	shapes.Check(r, got, file, false)
	if len(r.msgs) != 1 || !strings.Contains(r.msgs[0], "+ b\t") ||
		!strings.Contains(r.msgs[0], "go test ./internal/shapes -run '^TestShapes$' -update") {
		t.Errorf("different listing: Check reported %q, want one message with the diff and the regenerate command", r.msgs)
	}

	r = &recorder{TB: t}
	shapes.Check(r, got, file, true)
	shapes.Check(r, got, file, false)
	if len(r.msgs) != 0 {
		t.Errorf("update: Check reported %q", r.msgs)
	}
}
