package mcpserver_test

import (
	"strings"
	"testing"
)

// TestAffectedTests: named files give the affected test files with their
// reasons; a file outside the root is refused; a deleted file is a change.
func TestAffectedTests(t *testing.T) {
	root := goFixture(t)
	cs := connect(t, root, t.TempDir())
	text, isErr := call(t, cs, "affected_tests", map[string]any{"files": []string{"run_test.go"}}, nil)
	if isErr || !strings.Contains(text, "run_test.go  changed\n") || !strings.HasSuffix(text, "affected by 1 changed file") {
		t.Errorf("a changed test file: error %v, text %q", isErr, text)
	}
	text, isErr = call(t, cs, "affected_tests", map[string]any{"files": []string{"gone.go"}}, nil)
	if isErr || !strings.Contains(text, "affected by 1 changed file") {
		t.Errorf("a deleted file: error %v, text %q", isErr, text)
	}
	if text, isErr := call(t, cs, "affected_tests", map[string]any{"files": []string{"../x.go"}}, nil); !isErr || !strings.Contains(text, "is outside the root") {
		t.Errorf("outside the root: error %v, text %q", isErr, text)
	}
}
