package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/internal/proc"
	"github.com/testdex/testdex/internal/testenv"
)

// TestRunOutputKeepsTheTail runs, for Go, pytest and a skill-test module,
// a test that prints about 700 KB (more than the 500 KiB cap) and then
// fails with its reason printed last: the reason is the failure's message
// where the runner takes it from the output (Go), the last line printed
// is among the test's reported output after a truncation marker, and the
// output reported stays within the cap.
func TestRunOutputKeepsTheTail(t *testing.T) {
	for _, c := range []struct {
		tool, id, msg string
		files         map[string]string
	}{
		{"go", "big_test.go::TestBig", "DISTINCTIVE-REASON", map[string]string{
			"go.mod": "module example.com/big\n\ngo 1.22\n",
			"big_test.go": "package big\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc TestBig(t *testing.T) {\n" +
				"\tfor range 7000 {\n\t\tt.Log(strings.Repeat(\"x\", 99))\n\t}\n\tt.Log(\"LAST-LINE\")\n\tt.Fatal(\"DISTINCTIVE-REASON\")\n}\n",
		}},
		{"pytest", "test_big.py::test_big", "DISTINCTIVE-REASON", map[string]string{
			"pytest.ini":  "[pytest]\n",
			"test_big.py": "def test_big():\n    for _ in range(7000):\n        print('x' * 99)\n    print('LAST-LINE')\n    assert False, 'DISTINCTIVE-REASON'\n",
		}},
		{"node", "tests/big.tests.mjs", "DISTINCTIVE-REASON", map[string]string{
			"tests/big.tests.mjs": "export default () => {\n  for (let i = 0; i < 7000; i++) console.log('x'.repeat(99));\n" +
				"  console.log('LAST-LINE');\n  return {passed: 0, failed: 1, errors: ['DISTINCTIVE-REASON']};\n}\n",
		}},
	} {
		t.Run(c.tool, func(t *testing.T) {
			switch {
			case c.tool == "pytest" && exec.Command("python3", "-c", "import pytest").Run() != nil:
				testenv.Missing(t, "python3 with pytest is not installed")
			case c.tool != "pytest":
				if _, err := exec.LookPath(c.tool); err != nil {
					testenv.Missing(t, "%s is not installed", c.tool)
				}
			}
			root := t.TempDir()
			writeFiles(t, root, c.files)
			code, out, errs := cliIn(t, root, os.Environ(), "run", "--json")
			if code != cli.ExitFailed {
				t.Fatalf("exit %d, want 1\n%s", code, errs)
			}
			var msg string
			var output strings.Builder
			for _, e := range events(t, out) {
				switch {
				case e.ID == c.id && e.Action == testdex.ActionFail:
					msg = e.Message
				case e.Action == testdex.ActionOutput:
					output.WriteString(e.Output)
				}
			}
			if !strings.Contains(msg, c.msg) {
				t.Errorf("failure message %q, want %q", msg, c.msg)
			}
			o := output.String()
			marked := strings.Contains(o, "[TRUNCATED: ") || strings.Contains(o, "bytes of output left out]") // pytest's plugin cuts first
			if !strings.Contains(o, "LAST-LINE") || !marked {
				t.Errorf("the output reported has no LAST-LINE or no truncation marker (%d bytes)", len(o))
			}
			if len(o) > proc.DefaultCap+1024 {
				t.Errorf("%d bytes of output reported, more than the cap %d", len(o), proc.DefaultCap)
			}
		})
	}
}
