package markdown

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// authSpec has a title, two scenarios with their sections, a fenced
// block holding a heading-like line, a heading without an ID and a
// duplicate ID.
const authSpec = `---
tags: [auth]
---
# Auth

Shared context.

## Session expiry - id: session-expiry
### Expectation
Sessions end after 30 minutes.
` + "```md\n## Not a heading - id: fenced\n```\n" + `
## Password hashing - ID: password-hashing
### Behaviour
bcrypt.
## Notes
not judged
## Again - id: session-expiry
dup
`

func TestParseScenarios(t *testing.T) {
	_, d := Read([]byte(authSpec))
	var got []string
	for _, s := range d.Scenarios {
		got = append(got, s.ID+"|"+s.Title+"|"+itoa(s.Line))
	}
	want := []string{"session-expiry|Session expiry|8", "password-hashing|Password hashing|15"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("scenarios %q, want %q", got, want)
	}
	if text := d.Text(d.Scenarios[0]); !strings.HasPrefix(text, "## Session expiry") || !strings.Contains(text, "fenced") || strings.Contains(text, "bcrypt") {
		t.Errorf("first section %q", text)
	}
	var issues []string
	for _, i := range d.Issues {
		issues = append(issues, itoa(i.Line)+": "+i.Msg)
	}
	wantIssues := []string{
		`18: heading "Notes" has no scenario ID (write "## Notes - id: some-slug"); it is not judged`,
		`20: duplicate scenario ID "session-expiry" (first at line 8); only the first is listed`,
	}
	if !reflect.DeepEqual(issues, wantIssues) {
		t.Errorf("issues\n%q\nwant\n%q", issues, wantIssues)
	}
	// A scenario's context is the body without its siblings.
	ctx := d.Context(&d.Scenarios[1])
	if !strings.Contains(ctx, "Shared context") || !strings.Contains(ctx, "bcrypt") || strings.Contains(ctx, "30 minutes") || !strings.Contains(ctx, "not judged") {
		t.Errorf("context of password-hashing: %q", ctx)
	}
}

func TestParseNoScenarios(t *testing.T) {
	for _, body := range []string{"# Title\ntext\n", "plain", "", "# A - id: bad id!\n"} {
		d := Parse(body, 1)
		if len(d.Scenarios) != 0 {
			t.Errorf("%q: scenarios %v", body, d.Scenarios)
		}
		if d.Context(nil) != body {
			t.Errorf("%q: context %q", body, d.Context(nil))
		}
	}
	if d := Parse("# A - id: bad/id\n", 1); len(d.Issues) != 1 || !strings.Contains(d.Issues[0].Msg, "not a slug") {
		t.Errorf("a bad ID: %v", d.Issues)
	}
}

// TestNestedScenario: a scenario inside another's section keeps its own
// text in its context.
func TestNestedScenario(t *testing.T) {
	d := Parse("# Outer - id: outer\nouter text\n## Inner - id: inner\ninner text\n", 1)
	if len(d.Scenarios) != 2 {
		t.Fatalf("scenarios %v", d.Scenarios)
	}
	if c := d.Context(&d.Scenarios[1]); !strings.Contains(c, "inner text") {
		t.Errorf("inner's context %q", c)
	}
}

func TestExtractScenarios(t *testing.T) {
	res := Extractor{}.Extract(&lang.File{Rel: "specs/auth.spec.md", Data: []byte(authSpec)})
	var got []string
	for _, x := range res.Tests {
		got = append(got, x.Name+"|"+x.Key()+"|"+x.Parent+"|"+itoa(x.Line)+"|"+strings.Join(x.Tags, ","))
	}
	want := []string{"auth.spec.md|auth.spec.md||1|auth", "auth.spec.md::session-expiry|session-expiry|auth.spec.md|8|auth",
		"auth.spec.md::password-hashing|password-hashing|auth.spec.md|15|auth"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("records\n%q\nwant\n%q", got, want)
	}
	if len(res.Problems) != 2 || res.Problems[0].Severity != testdex.SevWarning {
		t.Errorf("problems %v", res.Problems)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{authSpec, "# a - id: x\n## b - id: y\n# c - id: x", "```\n# a - id: x\n", "~~~~\n~~~\n# a - id: q\n~~~~\n# b - id: r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		d := Parse(body, 1)
		seen := map[string]bool{}
		for _, s := range d.Scenarios {
			if seen[s.ID] || s.Start > s.End || s.End > len(body) {
				t.Fatalf("bad scenario %+v", s)
			}
			seen[s.ID] = true
			if !strings.Contains(d.Context(&s), d.Text(s)) {
				t.Fatalf("context of %s lacks its text", s.ID)
			}
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }
