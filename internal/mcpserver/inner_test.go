package mcpserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/mcpserver"
	"github.com/testdex/testdex/internal/testenv"
)

// innerModule is a skill-test module that counts 400 failed checks of
// its own, each error a message with a stack of 30 frames: over 300 KB
// of inner errors.
const innerModule = `export default function runTests() {
  const errors = [];
  for (let i = 0; i < 400; i++) errors.push('check ' + i + ' failed:\n' + '  at frame of a long stack\n'.repeat(30));
  return { passed: 3, failed: 400, errors };
}
`

// TestBudgetInnerErrors runs a module whose own checks carry 400 long
// errors: the answer stays under the budget with the counts whole, the
// errors it keeps cut like failure messages, and the rest counted.
func TestBudgetInnerErrors(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed: skill-test modules run under node")
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "big.tests.mjs"), []byte(innerModule), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int{mcpserver.DefaultBudget, 2000} {
		cs := connectBudget(t, root, t.TempDir(), budget)
		var ran mcpserver.RunOutput
		text := callSized(t, cs, budget, "run_tests", map[string]any{"scope": "all"}, &ran)
		in := ran.Inner
		if in == nil || in.Passed != 3 || in.Failed != 400 {
			t.Fatalf("budget %d: inner %+v, want 3 passed and 400 failed\n%s", budget, in, text)
		}
		if len(in.Errors)+ran.InnerErrorsOmitted != 400 || ran.InnerErrorsOmitted == 0 {
			t.Errorf("budget %d: %d inner errors kept, %d omitted, want 400 in all and some omitted", budget, len(in.Errors), ran.InnerErrorsOmitted)
		}
		for _, e := range in.Errors {
			if strings.Count(e, "\n") > 5 {
				t.Errorf("budget %d: an inner error keeps %d lines, want at most 6", budget, strings.Count(e, "\n")+1)
			}
		}
	}
}
