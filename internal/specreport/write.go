package specreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang/markdown"
	"github.com/testdex/testdex/internal/specs"
)

// The report files, as semtest names them.
const (
	MarkdownFile = "latest.md"
	JSONFile     = "ci-results.json"
	JUnitFile    = "junit-results.xml"
)

// Write writes the report files into dir: latest.md, ci-results.json and
// junit-results.xml. root is where the specs are read from (for each
// failure's Expectation), problems the listing's (the validation issues
// of the specs), now the report's time.
func (c *Collector) Write(dir, root string, problems []testdex.Problem, now time.Time) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write the spec report: %w", err)
	}
	results := c.Results()
	files := map[string][]byte{
		MarkdownFile: c.markdown(root, results, validation(problems), now),
		JSONFile:     c.ciJSON(results),
	}
	var x bytes.Buffer
	if _, err := c.junit.WriteTo(&x); err != nil {
		return err
	}
	files[JUnitFile] = x.Bytes()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return fmt.Errorf("write the spec report: %w", err)
		}
	}
	return nil
}

// ciTest is one test of ci-results.json: semtest's fields (id,
// sourceFile, status, group, location, error), then testdex's.
type ciTest struct {
	ID         string  `json:"id"`
	SourceFile string  `json:"sourceFile"`
	Status     string  `json:"status"`
	Group      string  `json:"group,omitempty"`
	Location   string  `json:"location,omitempty"`
	Error      string  `json:"error,omitempty"`
	TestdexID  string  `json:"testdexId"`
	Reused     bool    `json:"reused,omitempty"`
	Agreement  float64 `json:"agreement,omitempty"`
	Unstable   bool    `json:"unstable,omitempty"`
}

// ciJSON is semtest's ci-results.json, with testdex's additions: each
// test's testdexId, reused, agreement and unstable, and the run's calls.
func (c *Collector) ciJSON(results []*Result) []byte {
	type summary struct {
		Total   int `json:"total"`
		Passed  int `json:"passed"`
		Failed  int `json:"failed"`
		Errored int `json:"errored,omitempty"`
		Skipped int `json:"skipped,omitempty"`
	}
	var doc struct {
		Status  string   `json:"status"`
		Summary summary  `json:"summary"`
		Tests   []ciTest `json:"tests"`
		Calls   struct {
			Made  int `json:"made"`
			Saved int `json:"saved"`
		} `json:"calls"`
	}
	doc.Status, doc.Tests = specs.StatusPass, []ciTest{}
	for _, r := range results {
		file, name := testdex.SplitID(r.ID)
		t := ciTest{ID: firstOf(name, path.Base(file)), SourceFile: path.Base(file), Status: r.Status, Group: groupOf(file), TestdexID: r.ID}
		if v := r.Event.Verdict; v != nil {
			t.Reused, t.Agreement, t.Unstable = v.Reused, v.Agreement, v.Unstable
		}
		switch w := r.Worst.Verdict; {
		case w == nil && r.Status != specs.StatusPass:
			t.Error = r.Worst.Message
		case w == nil:
		case r.Status == specs.StatusFail:
			t.Location = w.Location
		case r.Status == specs.StatusError:
			t.Error = w.Observed
		}
		doc.Summary.Total++
		switch r.Status {
		case specs.StatusPass:
			doc.Summary.Passed++
		case specs.StatusFail:
			doc.Summary.Failed++
		case specs.StatusError:
			doc.Summary.Errored++
		default:
			doc.Summary.Skipped++
		}
		if worse(r.Status, doc.Status) {
			doc.Status = r.Status
		}
		doc.Tests = append(doc.Tests, t)
	}
	k := c.Cost()
	doc.Calls.Made, doc.Calls.Saved = k.Calls, k.Saved
	data, _ := json.MarshalIndent(doc, "", "  ")
	return append(data, '\n')
}

// markdown is semtest's latest.md: a header, the counts, then per group
// (folder) each test that did not pass with its Source, Status,
// Expectation, Observed, Location and Resolution, then the validation
// issues.
func (c *Collector) markdown(root string, results []*Result, issues []string, now time.Time) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Semantic Test Report\n\nRun: %s  \nProject: %s\n\n", now.UTC().Format(time.RFC3339), filepath.Base(root))
	counts := map[string]int{}
	for _, r := range results {
		counts[r.Status]++
	}
	k := c.Cost()
	b.WriteString("| Metric | Count |\n|---|---|\n")
	fmt.Fprintf(&b, "| Total Tests | %d |\n| Passed | %d |\n| Failed | %d |\n", len(results), counts[specs.StatusPass], counts[specs.StatusFail])
	for _, row := range []struct {
		name string
		n    int
	}{{"Errored", counts[specs.StatusError]}, {"Skipped", counts["skipped"]}, {"Invalid", len(issues)},
		{"Reused verdicts", k.Reused}, {"Agent calls", k.Calls}, {"Agent calls saved", k.Saved}, {"Unstable", len(k.Unstable)}} {
		if row.n > 0 {
			fmt.Fprintf(&b, "| %s | %d |\n", row.name, row.n)
		}
	}
	groups, byGroup := map[string]bool{}, map[string][]*Result{}
	var order []string
	for _, r := range results {
		if r.Status == specs.StatusPass && (r.Event.Verdict == nil || !r.Event.Verdict.Unstable) {
			continue
		}
		file, _ := testdex.SplitID(r.ID)
		g := groupOf(file)
		if !groups[g] {
			groups[g] = true
			order = append(order, g)
		}
		byGroup[g] = append(byGroup[g], r)
	}
	if len(order) == 0 {
		b.WriteString("\nAll tests passed.\n")
	}
	for _, g := range order {
		fmt.Fprintf(&b, "\n## %s\n", firstOf(g, "(top level)"))
		for _, r := range byGroup[g] {
			writeResult(&b, root, r)
		}
	}
	if len(issues) > 0 {
		b.WriteString("\n## Validation Issues\n\n")
		for _, i := range issues {
			b.WriteString("- " + i + "\n")
		}
	}
	return []byte(b.String())
}

// writeResult writes one test's section.
func writeResult(b *strings.Builder, root string, r *Result) {
	file, name := testdex.SplitID(r.ID)
	fmt.Fprintf(b, "\n### %s %s\n\nSource: %s  \nStatus: %s\n", strings.ToUpper(r.Status), firstOf(name, path.Base(file)), path.Base(file), strings.ToUpper(r.Status))
	v := r.Worst.Verdict // what the worst judgement said
	if v == nil {
		v = &testdex.Verdict{Observed: r.Worst.Message}
	}
	last := r.Event.Verdict // with --repeat, the agreement
	if last == nil {
		last = v
	}
	section := func(title, text string) {
		if text = strings.TrimSpace(text); text != "" {
			fmt.Fprintf(b, "\n%s:\n\n%s\n", title, text)
		}
	}
	section("Expectation", expectation(root, file, name))
	if r.Status == specs.StatusError {
		section("Error", v.Observed)
	} else {
		section("Observed", v.Observed)
		section("Location", v.Location)
		section("Resolution", v.Resolution)
	}
	if last.Unstable {
		section("Agreement", fmt.Sprintf("%.0f%% of %d judgements agree (unstable)", last.Agreement*100, last.Judgements))
	}
	if v.Reused {
		section("Verdict", "reused: judged "+v.Judged+" by "+v.Agent+"; its inputs are unchanged")
	}
}

// expectation is what a scenario requires: its "Expectation" section, or
// its text without its heading (a spec without scenarios: its body).
func expectation(root, file, id string) string {
	raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
	if err != nil {
		return ""
	}
	_, doc := markdown.Read(raw)
	text := doc.Body
	if s := doc.Find(id); s != nil {
		text = doc.Text(*s)
		if _, rest, ok := strings.Cut(text, "\n"); ok {
			text = rest
		}
	} else if id != "" {
		return ""
	}
	if m := expectationHead.FindStringIndex(text); m != nil {
		rest := text[m[1]:]
		if next := anyHead.FindStringIndex(rest); next != nil {
			rest = rest[:next[0]]
		}
		text = rest
	}
	return strings.TrimSpace(text)
}

var (
	expectationHead = regexp.MustCompile(`(?mi)^ {0,3}#{1,6}[ \t]+expectations?[ \t]*#*[ \t]*\n`)
	anyHead         = regexp.MustCompile(`(?m)^ {0,3}#{1,6}[ \t]`)
)

// validation lists the specs' validation findings in semtest's words:
// **duplicate-id**, **missing-id** and **invalid-id**.
func validation(problems []testdex.Problem) []string {
	var out []string
	for _, p := range problems {
		kind := ""
		switch {
		case strings.Contains(p.Message, "duplicate scenario ID"):
			kind = "duplicate-id"
		case strings.Contains(p.Message, "has no scenario ID"):
			kind = "missing-id"
		case strings.Contains(p.Message, "is not a slug"):
			kind = "invalid-id"
		default:
			continue
		}
		out = append(out, fmt.Sprintf("**%s**: %s:%d: %s", kind, p.Path, p.Line, p.Message))
	}
	return out
}

// groupOf is a spec's group: its folder, "" at the root.
func groupOf(file string) string {
	if d := path.Dir(file); d != "." {
		return d
	}
	return ""
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
