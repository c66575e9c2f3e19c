package golden_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/golden"
)

// recorder is a testing.TB that keeps what Compare reports instead of
// failing the test; Fatalf does not stop Compare, so only the first message
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

// TestCompare covers the three outcomes of Compare: equal, different (the
// message holds the diff and the regenerate command) and -update, which
// writes the file so that the next run passes.
func TestCompare(t *testing.T) {
	file := filepath.Join(t.TempDir(), "eco.expected.txt")
	if err := os.WriteFile(file, []byte("a\tfunction\ta\t-\t-\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := "b\tfunction\tb\t-\tskip\n"

	r := &recorder{TB: t}
	golden.Compare(r, file, []byte("a\tfunction\ta\t-\t-\n"), false)
	if len(r.msgs) != 0 {
		t.Errorf("same content: Compare reported %q", r.msgs)
	}

	r = &recorder{TB: t}
	golden.Compare(r, file, []byte(got), false)
	if len(r.msgs) != 1 || !strings.Contains(r.msgs[0], "+ b\t") ||
		!strings.Contains(r.msgs[0], "go test ./internal/golden -run '^TestShapes$' -update") {
		t.Errorf("different content: Compare reported %q, want one message with the diff and the regenerate command", r.msgs)
	}

	r = &recorder{TB: t}
	golden.Compare(r, file, []byte(got), true)
	golden.Compare(r, file, []byte(got), false)
	if len(r.msgs) != 0 {
		t.Errorf("update: Compare reported %q", r.msgs)
	}
}
