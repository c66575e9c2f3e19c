package js

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// listerFor returns the runtime lister of a framework. Each asks the
// framework to collect without running test bodies; all of them import
// the test files (module code and describe callbacks run):
//
//   - Jest has no dry run. `jest --json --testNamePattern='(?!)'` collects
//     every file and skips every test (the pattern matches nothing), so
//     test bodies and the hooks of skipped tests do not run; the JSON
//     report names each test with its ancestors. Cost: a full Jest start,
//     transforms included.
//   - Vitest: `vitest list --json` collects only.
//   - Mocha: `mocha --dry-run` (Mocha 9+) with a reporter, registered from
//     `node -e`, that prints every test's titlePath as JSON: the json
//     reporter joins titles with spaces, which cannot be split back.
//   - node:test has no dry run: `node --test --test-name-pattern='(?!)'`
//     skips every test (describe callbacks run, test bodies do not, so
//     t.test subtests are never reported) and a reporter given as a data:
//     URL prints each test's file, name and nesting as JSON lines.
//     (--test-only would skip whole describe blocks unreported.)
func listerFor(fw testdex.Framework) lang.Lister {
	switch fw {
	case testdex.Jest:
		return jestLister{}
	case testdex.Vitest:
		return vitestLister{}
	case testdex.Mocha:
		return mochaLister{}
	case testdex.NodeTest:
		return nodeLister{}
	}
	return nil
}

type jestLister struct{}

func (jestLister) ListCommand(p *lang.Project, files []string) (*lang.Command, error) {
	args := []string{"npx", "--no-install", "jest", "--json", "--testNamePattern=(?!)", "--passWithNoTests", "--runTestsByPath"}
	return &lang.Command{Args: append(args, files...), Dir: p.Dir, Env: []string{"CI=1"}}, nil
}

func (jestLister) ParseList(p *lang.Project, stdout, stderr []byte, code int) ([]lang.Listed, error) {
	var rep struct {
		TestResults []struct {
			Name             string `json:"name"`
			Message          string `json:"message"`
			AssertionResults []struct {
				AncestorTitles []string `json:"ancestorTitles"`
				Title          string   `json:"title"`
			} `json:"assertionResults"`
		} `json:"testResults"`
	}
	if err := json.Unmarshal(jsonPart(stdout), &rep); err != nil {
		return nil, fmt.Errorf("cannot read jest --json output (exit %d): %v; stderr: %s", code, err, tail(stderr))
	}
	var out []lang.Listed
	for _, f := range rep.TestResults {
		rel := relTo(p.Dir, f.Name)
		for _, a := range f.AssertionResults {
			out = append(out, listedTree(rel, append(a.AncestorTitles, a.Title))...)
		}
	}
	return dedupeListed(out), nil
}

type vitestLister struct{}

func (vitestLister) ListCommand(p *lang.Project, files []string) (*lang.Command, error) {
	// Filters go before --json, which takes an optional file argument.
	args := append(append([]string{"npx", "--no-install", "vitest", "list"}, files...), "--json")
	return &lang.Command{Args: args, Dir: p.Dir, Env: []string{"CI=1"}}, nil
}

func (vitestLister) ParseList(p *lang.Project, stdout, stderr []byte, code int) ([]lang.Listed, error) {
	var rep []struct {
		Name string `json:"name"`
		File string `json:"file"`
	}
	if err := json.Unmarshal(jsonPart(stdout), &rep); err != nil {
		return nil, fmt.Errorf("cannot read vitest list --json output (exit %d): %v; stderr: %s", code, err, tail(stderr))
	}
	var out []lang.Listed
	for _, t := range rep {
		out = append(out, listedTree(relTo(p.Dir, t.File), strings.Split(t.Name, " > "))...)
	}
	return dedupeListed(out), nil
}

// listedTree lists a test and, as suites, its ancestors.
func listedTree(file string, titles []string) []lang.Listed {
	var out []lang.Listed
	for i := range titles {
		k := testdex.KindSuite
		if i == len(titles)-1 {
			k = testdex.KindTest
		}
		out = append(out, lang.Listed{File: file, Scope: file, Name: strings.Join(titles[:i+1], " > "), Kind: k})
	}
	return out
}

// dedupeListed keeps the first of each (scope, name).
func dedupeListed(in []lang.Listed) []lang.Listed {
	seen := map[string]bool{}
	out := in[:0]
	for _, l := range in {
		k := l.Scope + "\x00" + l.Name
		if !seen[k] {
			seen[k] = true
			out = append(out, l)
		}
	}
	return out
}

// jsonPart skips anything printed before the JSON document.
func jsonPart(b []byte) []byte {
	for i, c := range b {
		if c == '{' || c == '[' {
			return b[i:]
		}
	}
	return b
}

func relTo(dir, file string) string {
	if rel, err := filepath.Rel(dir, file); err == nil && filepath.IsAbs(file) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(file)
}

func tail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 2000 {
		s = "..." + s[len(s)-2000:]
	}
	return s
}

// Reports says which records vitest list can confirm: it leaves out
// skipped and todo tests.
func (vitestLister) Reports(t *testdex.Test) bool { return !t.Skip }
