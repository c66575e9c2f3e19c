package js

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/testenv"
)

// TestAskNode asks the node on PATH what the listing reads of it: its
// version and http.METHODS, as node itself answers.
func TestAskNode(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node")
	}
	v := nodeVersion()
	if v == "" || strings.HasPrefix(v, "v") || strings.Count(v, ".") != 2 {
		t.Errorf("nodeVersion() = %q, want a version like 20.11.1", v)
	}
	ms := nodeMethods()
	if !slices.Contains(ms, "GET") || !slices.Contains(ms, "PATCH") || !slices.IsSorted(ms) {
		t.Errorf("nodeMethods() = %v, want node's sorted http.METHODS", ms)
	}
}
