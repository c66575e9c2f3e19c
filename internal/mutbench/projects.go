package mutbench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex/internal/fidelity"
)

// A Project is one real, published project the benchmark mutates. Keep
// Name and Version in step with the setup that installs it: Home
// "fidelity" is scripts/setup/fidelity.sh (into fidelity.Dir()), Home
// "mutbench" is scripts/mutbench.sh (into Config.Dir).
type Project struct {
	Name, Version string
	Framework     string // the fidelity key's framework
	Lang          string // go, python, js, ts or rust: how its sources are mutated
	Tool          string // the command it needs on PATH
	Home          string
	// Src holds the folders (or files) whose sources are mutated, relative
	// to the project; empty means the whole project. Skip leaves out paths
	// under it (vendored code, test helpers); test files never count.
	Src, Skip []string
	// Link names the top-level folders the copy links instead of copying.
	Link []string
	// Env adds to the environment the runner sees in the copy at dir
	// (recorders: the fidelity recorders' folder).
	Env func(dir, recorders string) []string
	// Native runs the whole suite in x.Dir with the runner's own report.
	Native func(x *Exec) (fidelity.Results, error)
	// Compiles tells, where that is cheap, whether the mutated file
	// compiles: a non-nil error wrapping errNoCompile says it does not.
	// Native may say so too, where the suite's own build is the check.
	Compiles func(x *Exec, file string) error
	// Check, when set, proves the tests import the copy, not the original.
	Check func(x *Exec) error
}

// errNoCompile marks a mutant that does not compile.
var errNoCompile = errors.New("does not compile")

// Projects are the benchmark's projects. Why each, and what a run costs,
// is in README.md.
var Projects = []Project{
	goProject("expr", "github.com/expr-lang/expr v1.17.8 (Go module proxy; test/gen and test/fuzz left out)", "mutbench",
		// testify, spew and difflib are vendored copies used by the tests only.
		"internal/testify/", "internal/spew/", "internal/difflib/"),
	goProject("pflag", "github.com/spf13/pflag v1.0.9 (Go module proxy)", "mutbench"),
	goProject("go-cmp", "github.com/google/go-cmp v0.7.0 (Go module proxy)", "fidelity"),
	{
		Name: "itsdangerous", Version: "itsdangerous 2.2.0 (PyPI sdist), pytest 8.1.1", Framework: "pytest",
		Lang: "python", Tool: "python3", Home: "fidelity", Src: []string{"src/"}, Link: []string{".venv"},
		// The virtualenv's editable install points at the original's src:
		// the copy's comes first (after the recorder plugin's folder).
		Env: func(dir, recorders string) []string {
			return []string{"PYTHONPATH=" + recorders + string(os.PathListSeparator) + filepath.Join(dir, "src")}
		},
		Native:   pytestNative,
		Compiles: pyCompiles,
		Check:    pyImports("itsdangerous"),
	},
	{
		Name: "pyasn1", Version: "pyasn1 0.6.1 (PyPI sdist), unittest", Framework: "unittest",
		Lang: "python", Tool: "python3", Home: "fidelity", Src: []string{"pyasn1/"}, Link: []string{".venv"},
		Native: func(x *Exec) (fidelity.Results, error) {
			if _, err := x.Output(x.Venv("python"), filepath.Join(x.Recorders, "fidelity_unittest.py"), x.Out); err != nil {
				return nil, err
			}
			return records(x, "unittest")
		},
		Compiles: pyCompiles,
		Check:    pyImports("pyasn1"),
	},
	{
		Name: "zod", Version: "zod 4.6.7 (npm; 26 of its classic test files), vitest 3.2.4", Framework: "vitest",
		Lang: "ts", Tool: "node", Home: "mutbench", Src: []string{"src/v4/core/", "src/v4/classic/"},
		Skip: []string{"src/v4/core/tests/", "src/v4/classic/tests/"}, Link: []string{"node_modules"},
		Native: func(x *Exec) (fidelity.Results, error) {
			if _, err := x.Output(x.Bin("vitest"), "run", "--reporter=json", "--outputFile="+x.Out); err != nil {
				return nil, err
			}
			data, err := x.Report()
			if err != nil {
				return nil, err
			}
			return fidelity.ParseJestJSON("vitest", x.Dir, data)
		},
		// esbuild, which vitest transforms with, reads the file alone.
		Compiles: func(x *Exec, file string) error {
			return compiles(x, x.Bin("esbuild"), "--log-level=error", "--outfile=/dev/null", file)
		},
	},
	{
		Name: "json-schema-traverse", Version: "json-schema-traverse 1.0.0 (npm), mocha 8", Framework: "mocha",
		Lang: "js", Tool: "node", Home: "fidelity", Src: []string{"index.js"}, Link: []string{"node_modules"},
		Native: func(x *Exec) (fidelity.Results, error) {
			if _, err := x.Output(x.Bin("mocha"), "spec", "--reporter", filepath.Join(x.Recorders, "fidelity_mocha.js")); err != nil {
				return nil, err
			}
			return records(x, "mocha")
		},
		Compiles: nodeCompiles,
	},
	{
		Name: "light-my-request", Version: "light-my-request 6.8.1 (npm), node:test", Framework: "node",
		Lang: "js", Tool: "node", Home: "fidelity", Src: []string{"index.js", "lib/"}, Link: []string{"node_modules"},
		Native: func(x *Exec) (fidelity.Results, error) {
			if _, err := x.Output("node", "--test", "--test-reporter="+filepath.Join(x.Recorders, "fidelity_node.mjs")); err != nil {
				return nil, err
			}
			return records(x, "node")
		},
		Compiles: nodeCompiles,
	},
	{
		Name: "semver", Version: "semver 1.0.28 (crates.io)", Framework: "cargo",
		Lang: "rust", Tool: "cargo", Home: "fidelity", Src: []string{"src/"},
		Native: func(x *Exec) (fidelity.Results, error) {
			out, err := x.Combined("cargo", "test", "--locked")
			if err != nil {
				return nil, err
			}
			return fidelity.ParseLibtest(bytes.NewReader(out))
		},
		// Building the tests is the compile check, and the run then only runs.
		Compiles: func(x *Exec, _ string) error { return compiles(x, "cargo", "test", "--locked", "--no-run") },
	},
	{
		Name: "commons-cli", Version: "commons-cli 1.9.0 (Maven Central), JUnit 5", Framework: "junit",
		Lang: "java", Tool: "mvn", Home: "fidelity", Src: []string{"src/main/java/"},
		// Maven's own compile is the check: a separate one would cost
		// about as much as the run.
		Native: func(x *Exec) (fidelity.Results, error) {
			reports := filepath.Join(x.Dir, "target", "surefire-reports")
			if err := os.RemoveAll(reports); err != nil {
				return nil, err
			}
			out, err := x.Combined("mvn", "-B", "-q", "-o", "-Dstyle.color=never", "test")
			if err != nil {
				return nil, err
			}
			if bytes.Contains(out, []byte("COMPILATION ERROR")) {
				return nil, fmt.Errorf("%w: %s", errNoCompile, firstLines(string(out), 3))
			}
			return fidelity.ParseSurefire(reports)
		},
	},
}

// goProject is a Go module: its non-test files are mutated (skip aside),
// building the mutated file's package with its tests tells whether a
// mutant compiles (go build ./... would refuse a package main without
// main, which holds only tests), and the suite is go test -json over
// every package, each test binary stopped after a minute (a mutant can
// loop; go test then names the test).
func goProject(name, version, home string, skip ...string) Project {
	return Project{
		Name: name, Version: version, Framework: "go", Lang: "go", Tool: "go", Home: home, Skip: skip,
		Native: func(x *Exec) (fidelity.Results, error) {
			out, err := x.Output("go", "test", "-json", "-count=1", "-timeout=60s", "./...")
			if err != nil {
				return nil, err
			}
			return fidelity.ParseGoJSON(bytes.NewReader(out))
		},
		Compiles: func(x *Exec, file string) error {
			return compiles(x, "go", "test", "-count=1", "-run=^$", "-vet=off", "./"+path.Dir(file))
		},
	}
}

func pytestNative(x *Exec) (fidelity.Results, error) {
	if _, err := x.Output(x.Venv("pytest"), "-p", "fidelity_pytest", "-q"); err != nil {
		return nil, err
	}
	return records(x, "pytest")
}

func records(x *Exec, fw string) (fidelity.Results, error) {
	data, err := x.Report()
	if err != nil {
		return nil, err
	}
	res, err := fidelity.ParseRecords(fw, bytes.NewReader(data))
	if err != nil {
		return res, err
	}
	for _, l := range bytes.Split(data, []byte("\n")) {
		var rec struct {
			Scope, Name string
			Cancelled   bool
		}
		if json.Unmarshal(l, &rec) == nil && rec.Cancelled {
			res[fidelity.Key{Framework: fw, Scope: rec.Scope, Name: rec.Name}] = cancelled
		}
	}
	return res, nil
}

// cancelled is the outcome of a test the runner cancelled before it ran
// (node:test's cancelledByParent), reported as failed: newlyFailing
// counts it only when no test that ran failed.
const cancelled fidelity.Outcome = "cancelled"

func pyCompiles(x *Exec, file string) error {
	return compiles(x, x.Venv("python"), "-m", "py_compile", file)
}

func nodeCompiles(x *Exec, file string) error { return compiles(x, "node", "--check", file) }

// compiles runs a compile check; its failure wraps errNoCompile with what
// the compiler said.
func compiles(x *Exec, name string, args ...string) error {
	ok, out, err := x.Succeeds(name, args...)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w: %s", errNoCompile, firstLines(out, 3))
	}
	return nil
}

// pyImports checks that the package pkg the tests import is the copy's.
func pyImports(pkg string) func(x *Exec) error {
	return func(x *Exec) error {
		out, err := x.Output(x.Venv("python"), "-c", "import "+pkg+"; print("+pkg+".__file__)")
		if err != nil {
			return err
		}
		got := strings.TrimSpace(string(out))
		if !strings.HasPrefix(got, x.Dir+string(os.PathSeparator)) {
			return fmt.Errorf("the tests would import %s from %s, not from the copy %s", pkg, got, x.Dir)
		}
		return nil
	}
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}
