package js

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/testenv"
)

// TestJestReporterStringTitles feeds Jest's reporter the results
// jest-jasmine2 gives for a test titled by an array (it([2010, 6])): its
// events name the test by String(title), as the listing does, and decode
// as titles; before, the array made the events undecodable and the test
// was "not reported".
func TestJestReporterStringTitles(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed")
	}
	dir := t.TempDir()
	events := filepath.Join(dir, "events.jsonl")
	file, err := writeReporter(testdex.Jest, dir, 0, events, "", "")
	if err != nil {
		t.Fatal(err)
	}
	script := `const R = require(process.argv[1]); const r = new R();
const t = {ancestorTitles: ['d', 7], title: [2010, 6], status: 'passed', duration: 1};
r.onTestCaseStart({path: '/p/a.test.js'}, t);
r.onTestCaseResult({path: '/p/a.test.js'}, t);
r.onTestResult({path: '/p/a.test.js'}, {testResults: [t]});`
	if out, err := exec.Command("node", "-e", script, file).CombinedOutput(); err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	data, err := os.ReadFile(events)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var ev struct {
			A      string   `json:"a"`
			Titles []string `json:"titles"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("event %s: %v", line, err)
		}
		got = append(got, ev.A+" "+strings.Join(ev.Titles, " > "))
	}
	if want := "run d > 7 > 2010,6|pass d > 7 > 2010,6"; strings.Join(got, "|") != want {
		t.Errorf("events %q, want %q", got, want)
	}
}
