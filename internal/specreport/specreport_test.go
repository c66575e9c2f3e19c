package specreport

import (
	"bufio"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/testdex/testdex"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestReport replays testdata/events.jsonl (a `testdex run --json` stream
// of specs: a pass, a failure, an error, a verdict reused, an unstable
// --repeat, events of another framework) into the report files, and
// compares them with the golden files: semtest's latest.md and
// ci-results.json shapes (docs/specs.md).
// Regenerate: go test ./internal/specreport -run TestReport -update
func TestReport(t *testing.T) {
	root := filepath.Join(t.TempDir(), "project")
	os.MkdirAll(filepath.Join(root, "specs/api"), 0o755)
	os.WriteFile(filepath.Join(root, "specs/auth.spec.md"), []byte("# Auth\n\n## Expiry - id: expiry\n### Expectation\nSessions end after 30 minutes.\n### Behaviour\nChecked on each request.\n## Hashing - id: hashing\nPasswords are hashed.\n"), 0o644)
	os.WriteFile(filepath.Join(root, "specs/api/routes.spec.md"), []byte("Every route is authenticated.\n"), 0o644)
	f, err := os.Open("testdata/events.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var c Collector
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e testdex.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		c.Event(e)
	}
	problems := []testdex.Problem{{Severity: testdex.SevWarning, Path: "specs/auth.spec.md", Line: 12, Message: `duplicate scenario ID "expiry" (first at line 3); only the first is listed`}}
	out := t.TempDir()
	if err := c.Write(out, root, problems, time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{MarkdownFile, JSONFile} {
		got, _ := os.ReadFile(filepath.Join(out, name))
		golden := filepath.Join("testdata", name+".golden")
		if *update {
			os.WriteFile(golden, got, 0o644)
		}
		want, _ := os.ReadFile(golden)
		if string(got) != string(want) {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, want)
		}
	}
	k := c.Cost()
	if k.Scenarios != 4 || k.Calls != 5 || k.Reused != 1 || k.Saved != 1 || len(k.Unstable) != 1 || k.CostUSD != 0.5 {
		t.Errorf("cost %+v", k)
	}
}
