package fidelity

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// ParseGoJSON reads `go test -json` output: every test the stream ends
// with pass, fail or skip, parents and benchmarks included, as go test
// reports (and gotestsum counts) them. A package that fails without a test
// (a build error) is recorded under the empty name, so it shows in a diff.
func ParseGoJSON(r io.Reader) (Results, error) {
	res := Results{}
	dec := json.NewDecoder(r)
	testFailed := map[string]bool{} // packages with a failing test: their own failure is the tests'
	for {
		var ev struct {
			Action, Package, Test string
		}
		if err := dec.Decode(&ev); err == io.EOF {
			for pkg := range testFailed {
				delete(res, Key{"go", pkg, ""})
			}
			return res, nil
		} else if err != nil {
			return res, fmt.Errorf("go test -json: %w", err)
		}
		o := Outcome(ev.Action)
		if o != Pass && o != Fail && o != Skip {
			continue
		}
		if ev.Test == "" && o != Fail {
			continue
		}
		if ev.Test != "" && o == Fail {
			testFailed[ev.Package] = true
		}
		res.Add(Key{"go", ev.Package, ev.Test}, o)
	}
}

// ParseRecords reads the JSON Lines the recorders in testdata/recorders
// write: one {"scope","name","outcome"} a line, for framework fw.
func ParseRecords(fw string, r io.Reader) (Results, error) {
	res := Results{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var rec struct {
			Scope, Name string
			Outcome     Outcome
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			return res, fmt.Errorf("%s record %q: %w", fw, line, err)
		}
		res.Add(Key{fw, rec.Scope, rec.Name}, rec.Outcome)
	}
	return res, sc.Err()
}

// ParseJestJSON reads the report of `jest --json` or `vitest run
// --reporter=json` (the same shape) for framework fw: each assertion
// result's file, relative to dir (the package.json folder), and its titles
// joined by " > ". A test file that failed to run at all is recorded as a
// failure under its file with the empty name.
func ParseJestJSON(fw, dir string, data []byte) (Results, error) {
	var rep struct {
		TestResults []struct {
			Name             string
			Status           string
			Message          string
			AssertionResults []struct {
				AncestorTitles []string
				Title          string
				Status         string
			}
		}
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("%s json report: %w", fw, err)
	}
	res := Results{}
	for _, file := range rep.TestResults {
		scope := relSlash(dir, file.Name)
		if len(file.AssertionResults) == 0 && file.Status == "failed" {
			res.Add(Key{fw, scope, ""}, Fail)
		}
		for _, a := range file.AssertionResults {
			name := strings.Join(append(append([]string{}, a.AncestorTitles...), a.Title), " > ")
			res.Add(Key{fw, scope, name}, jestOutcome(a.Status))
		}
	}
	return res, nil
}

func jestOutcome(status string) Outcome {
	switch status {
	case "passed":
		return Pass
	case "failed":
		return Fail
	}
	return Skip // pending, skipped, todo, disabled
}

func relSlash(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}

var (
	// cargo prints, on stderr, which target's tests follow.
	libtestRunning = regexp.MustCompile(`^\s*Running (?:unittests )?(\S+) \(`)
	libtestDoc     = regexp.MustCompile(`^\s*Doc-tests \S+`)
	// libtest prints one line per test on stdout.
	libtestLine = regexp.MustCompile(`^test (.+?) \.\.\. (ok|FAILED|ignored)(?:, .*)?$`)
)

// ParseLibtest reads `cargo test`'s combined stdout and stderr: the target
// each "Running" line names (its root file, the scope), then libtest's
// `test NAME ... ok|FAILED|ignored` lines. Doc tests get the scope of the
// library's root file (src/lib.rs unless a Running line named another
// lib.rs).
func ParseLibtest(r io.Reader) (Results, error) {
	res := Results{}
	scope, lib := "", "src/lib.rs"
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if m := libtestRunning.FindStringSubmatch(line); m != nil {
			scope = m[1]
			if strings.HasSuffix(scope, "lib.rs") {
				lib = scope
			}
			continue
		}
		if libtestDoc.MatchString(line) {
			scope = lib
			continue
		}
		m := libtestLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		name := m[1]
		for _, suffix := range []string{" - should panic", " - compile fail", " - compile"} {
			name = strings.TrimSuffix(name, suffix)
		}
		o := map[string]Outcome{"ok": Pass, "FAILED": Fail, "ignored": Skip}[m[2]]
		res.Add(Key{"cargo", scope, name}, o)
	}
	return res, sc.Err()
}

// ParseSurefire reads every TEST-*.xml in dir (Surefire's reports): each
// testcase is a test, its class the scope; a method name Surefire prints
// without parameters (testFoo) gets the "()" the JUnit platform displays.
func ParseSurefire(dir string) (Results, error) {
	files, err := filepath.Glob(filepath.Join(dir, "TEST-*.xml"))
	if err != nil {
		return nil, err
	}
	res := Results{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var suite struct {
			Cases []struct {
				Name      string    `xml:"name,attr"`
				Classname string    `xml:"classname,attr"`
				Failure   *struct{} `xml:"failure"`
				Error     *struct{} `xml:"error"`
				Skipped   *struct{} `xml:"skipped"`
			} `xml:"testcase"`
		}
		if err := xml.Unmarshal(data, &suite); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for _, c := range suite.Cases {
			name := c.Name
			if !strings.Contains(name, "(") {
				name += "()"
			}
			o := Pass
			switch {
			case c.Failure != nil || c.Error != nil:
				o = Fail
			case c.Skipped != nil:
				o = Skip
			}
			res.Add(Key{"junit", c.Classname, name}, o)
		}
	}
	return res, nil
}
